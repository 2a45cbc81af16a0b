import Foundation
import TomoCore

/// What `tomo check` makes of images instead of thumbnails: every test `ImageProcessor` runs on
/// a new image (`ImageProcessor.inspect`: the file can be read, libvips reads its header, in a
/// format Tomo publishes, not too big) and the variants a build would make, without decoding
/// the pixels, encoding or writing anything. A variant's `path` is the source image itself.
public struct ImageInspector: Sendable {
    public let widths: [Int]

    public init(widths: [Int] = ImageProcessor.defaultWidths) throws(Diagnostic) {
        try ImageProcessor.check(widths: widths)
        _ = try ImageProcessor.libvipsVersion()
        self.widths = widths
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
        let stem = PublishedName.stem(of: source.displayPath)
        var variants: [ImageVariant] = []
        for format in ImageFormat.allCases {
            for width in TargetWidths.plan(configured: widths, originalWidth: header.width, originalHeight: header.height) {
                let height = max(1, (header.height * width + header.width / 2) / header.width)
                variants.append(ImageVariant(
                    format: format, width: width, height: height,
                    fileName: "\(stem)-00000000-\(width).\(format.fileExtension)", cached: CachedFilePath(head: source.path), byteCount: 0
                ))
            }
        }
        return ProcessedImage(displayPath: source.displayPath, width: header.width, height: header.height, hasAlpha: header.hasAlpha, variants: variants)
    }
}
