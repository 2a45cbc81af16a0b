import Foundation
import TomoCore

/// What `tomo check` makes of images instead of thumbnails: every test `ImageProcessor` runs on
/// a new image (`ImageProcessor.inspect`: the file can be read, libvips reads its header, in a
/// format Tomo publishes, not too big; `ImageProcessor.targets`: some thumbnail of it fits
/// WebP; `ImageProcessor.decode`: the whole image decodes into the build's first thumbnail)
/// and the variants a build would make, without encoding or writing anything. A variant's
/// `path` is the source image itself.
///
/// Decoding is most of what a check costs, so an image the cache vouches for is not decoded:
/// one whose file has the stamp a build recorded, with the hash of a source the build made
/// thumbnails of (it decoded then as it would now). The cache is only read.
public struct ImageInspector: Sendable {
    public let widths: [Int]
    /// The image cache, read only, when there is one to consult.
    private let cache: (index: SourceIndex, files: ImageCache, pipeline: String)?

    /// `cacheFolder`: the build's image cache (`<site>/.tomo-cache/images`), read and never
    /// written; without one, every image is decoded.
    public init(widths: [Int] = ImageProcessor.defaultWidths, cacheFolder: URL? = nil) throws(Diagnostic) {
        try ImageProcessor.check(widths: widths)
        let version = try ImageProcessor.libvipsVersion()
        self.widths = widths
        cache = cacheFolder.map { folder in
            let pipeline = ImageProcessor.pipeline(libvips: version)
            return (SourceIndex(folder: folder, pipeline: pipeline, readOnly: true), ImageCache(reading: folder), pipeline)
        }
    }

    /// `ImageProcessor.process(count:source:then:)`'s counterpart: one result per source, in
    /// order; one bad image does not stop the others.
    public func process<Made: Sendable>(
        count: Int, source: @Sendable (Int) -> ImageSource, then: @Sendable (_ index: Int, Result<ProcessedImage, Diagnostic>) -> Made
    ) -> [Made] {
        Array(0..<count).concurrentMap { index in
            defer { Vips.releaseThreadMemory() }
            return then(index, Result { () throws(Diagnostic) in try process(source(index)) })
        }
    }

    public func process(_ source: ImageSource) throws(Diagnostic) -> ProcessedImage {
        let header = try ImageProcessor.inspect(source)
        let targets = try ImageProcessor.targets(of: source, configured: widths, width: header.width, height: header.height)
        if !madeBefore(source), let first = targets.first {
            try ImageProcessor.decode(source, width: first)
        }
        let stem = PublishedName.stem(of: source.displayPath)
        var variants: [ImageVariant] = []
        for format in ImageFormat.allCases {
            for width in targets {
                let height = max(1, (header.height * width + header.width / 2) / header.width)
                variants.append(ImageVariant(
                    format: format, width: width, height: height,
                    fileName: "\(stem)-00000000-\(width).\(format.fileExtension)", cached: CachedFilePath(head: source.path), byteCount: 0
                ))
            }
        }
        return ProcessedImage(displayPath: source.displayPath, width: header.width, height: header.height, hasAlpha: header.hasAlpha, variants: variants)
    }

    /// Whether a build made thumbnails of `source` as the file is now: its stamp is the one the
    /// cache's index holds for its path, and the cache has a manifest of that source hash (a
    /// manifest is written only once the build decoded and encoded the image). The lookups a
    /// build makes before it reads the file, in the same order.
    private func madeBefore(_ source: ImageSource) -> Bool {
        guard let cache, let stamp = source.stamp ?? FileStamp(path: source.path),
              let hash = cache.index.hash(of: source.path, stamp: stamp) else { return false }
        return cache.index.manifest(of: hash) != nil || cache.files.manifest(sourceHash: hash, pipeline: cache.pipeline) != nil
    }
}
