import Foundation
import Synchronization
import TomoCore

/// Turns source images into responsive thumbnails: each configured width that is not wider than
/// the image (and the image's own width when it is narrower than some configured width), in WebP
/// and JPEG, upright by EXIF orientation and without any metadata.
///
/// Results are cached in `cacheFolder` by the SHA-256 of the source bytes and the settings, so a
/// rebuild encodes only images (or widths) it has not seen. A processor is safe to share
/// between threads; `process(_:)` on a list uses every core.
public final class ImageProcessor: Sendable {
    public static let defaultWidths = [320, 640, 1280]
    public static let defaultQuality = 80
    /// Formats published as photos. Other formats libvips reads (SVG, PDF, raw, FITS...) are
    /// refused rather than quietly rasterised.
    static let acceptedFormats: Set<String> = ["jpeg", "png", "webp", "heif", "gif", "tiff"]
    /// Refuses decompression bombs (a tiny PNG that claims to be 100,000 pixels square).
    static let maximumPixels = 250_000_000
    /// Bump when a change here alters the output bytes, so old cache entries are re-encoded.
    static let pipelineVersion = 1

    public let widths: [Int]
    public let quality: Int
    private let cache: ImageCache
    /// Source hashes by stamp, and manifests by source hash (a photo used by many posts is looked
    /// up once), kept between builds.
    private let index: SourceIndex
    private let pipeline: String
    private let encodes = Mutex(0)
    /// Whether every cached thumbnail found is read and compared with the hash its manifest
    /// recorded before it is used (`tomo build --full`): published thumbnails are links to the
    /// cached files, so a published one edited in place changed the cached one too.
    private let verifiesCache: Bool

    /// - Parameters:
    ///   - cacheFolder: where thumbnails are kept between builds (created if missing), e.g.
    ///     `<site>/.tomo-cache/images`; nothing is written anywhere else.
    ///   - widths: `images.widths` from site.yaml.
    ///   - quality: the encoders' quality, 1-100.
    ///   - verifiesCache: whether each cached thumbnail is read and checked against its hash
    ///     before it is used; one that fails is made again.
    public init(cacheFolder: URL, widths: [Int] = defaultWidths, quality: Int = defaultQuality, verifiesCache: Bool = false) throws(Diagnostic) {
        try Self.check(widths: widths)
        guard (1...100).contains(quality) else { throw Diagnostic("image quality \(quality) is not between 1 and 100") }
        let version = try Self.libvipsVersion()
        self.widths = widths
        self.quality = quality
        self.verifiesCache = verifiesCache
        let pipeline = Self.pipeline(libvips: version)
        self.pipeline = pipeline
        self.cache = try ImageCache(folder: cacheFolder)
        self.index = SourceIndex(folder: cacheFolder, pipeline: pipeline)
    }

    static func check(widths: [Int]) throws(Diagnostic) {
        guard !widths.isEmpty else { throw Diagnostic("images.widths is empty: give at least one width, e.g. [320, 640, 1280]") }
        if let bad = widths.first(where: { !(1...TargetWidths.maximum).contains($0) }) {
            throw Diagnostic("images.widths: \(bad) is not a width between 1 and \(TargetWidths.maximum) pixels")
        }
    }

    static func libvipsVersion() throws(Diagnostic) -> String {
        switch Vips.version {
        case .success(let value): return value
        case .failure(let failure): throw Diagnostic("libvips could not start: \(failure.reason)")
        }
    }

    /// What made a cache entry: Tomo's image pipeline and the libvips that ran it (a manifest
    /// made by another is not used).
    static func pipeline(libvips version: String) -> String {
        "tomo-images \(pipelineVersion), libvips \(version)"
    }

    /// How many thumbnails this processor has encoded (one per width and format); a rebuild with
    /// nothing changed encodes none.
    public var encodeCount: Int {
        encodes.withLock { $0 }
    }

    /// The thumbnails of one image file. `displayPath` names it in errors.
    public func variants(for source: URL, displayPath: String) throws(Diagnostic) -> ProcessedImage {
        try process(ImageSource(file: source, displayPath: displayPath))
    }

    /// Processes many images at once, one per core, each libvips call on one thread. Results come
    /// in the order of `sources`; one bad image does not stop the others.
    public func process(_ sources: [ImageSource]) -> [Result<ProcessedImage, Diagnostic>] {
        process(count: sources.count, source: { sources[$0] }, then: { $1 })
    }

    /// `process(_:)` for `count` sources, each one made by `source` and its result turned by
    /// `then` (with its index) on the core that processes it: at 100,000 photos, making the
    /// sources and turning the results one by one on one core took as long as looking the
    /// photos up.
    public func process<Made: Sendable>(
        count: Int, source: @Sendable (Int) -> ImageSource, then: @Sendable (_ index: Int, Result<ProcessedImage, Diagnostic>) -> Made
    ) -> [Made] {
        defer { index.save() }
        return [Made](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = Slots(base: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let result = Result { () throws(Diagnostic) in try process(source(index)) }
                Vips.releaseThreadMemory()
                slots.fill(index, with: then(index, result))
            }
            initialized = count
        }
    }

    /// The thumbnails of one image, from the cache where possible.
    public func process(_ source: ImageSource) throws(Diagnostic) -> ProcessedImage {
        let stamp = source.stamp ?? FileStamp(path: source.path)
        let sourceHash: String
        if let stamp, let known = index.hash(of: source.path, stamp: stamp) {
            sourceHash = known
        } else {
            sourceHash = SHA256.hex(of: try read(source))
            if let stamp { index.record(sourceHash, of: source.path, stamp: stamp) }
        }
        var manifest: CacheManifest
        let indexed = index.manifest(of: sourceHash)
        if let indexed {
            manifest = indexed
        } else if let cached = cache.manifest(sourceHash: sourceHash, pipeline: pipeline) {
            manifest = cached
        } else {
            manifest = try newManifest(source)
        }
        var encodedAny = false
        if verifiesCache {
            // A thumbnail whose bytes are not the ones recorded is made again, as a missing one.
            let intact = manifest.entries.filter { entry in
                guard case .success(let bytes) = RegularFile.read(cache.path(named: entry.cacheFileName(sourceHash: sourceHash))) else { return false }
                return bytes.count == entry.byteCount && SHA256.hex(of: bytes) == entry.contentHash
            }
            encodedAny = intact.count != manifest.entries.count
            manifest.entries = intact
        }
        let targets = try Self.targets(of: source, configured: widths, width: manifest.width, height: manifest.height)
        for target in targets {
            let missing = ImageFormat.allCases.filter { manifest.entry(format: $0, quality: quality, target: target) == nil }
            if missing.isEmpty { continue }
            let thumbnail = try Self.thumbnail(width: target, source)
            for format in missing {
                let encoded = try encode(thumbnail, as: format, source)
                let entry = CacheManifest.Entry(
                    format: format, quality: quality, target: target, width: thumbnail.width, height: thumbnail.height,
                    contentHash: SHA256.hex(of: encoded), byteCount: encoded.count
                )
                try cache.store(encoded, named: entry.cacheFileName(sourceHash: sourceHash))
                manifest.entries.append(entry)
                encodedAny = true
            }
        }
        if encodedAny {
            // libvips read the file again: make sure it still holds the bytes that were hashed.
            guard FileStamp(path: source.path) == stamp else {
                throw Self.error(source, "the file changed while Tomo was reading it: build again")
            }
            try cache.store(manifest, sourceHash: sourceHash)
        }
        if indexed == nil || encodedAny { index.remember(manifest, of: sourceHash) }
        return processedImage(manifest, targets: targets, sourceHash: sourceHash, source)
    }

    private func read(_ source: ImageSource) throws(Diagnostic) -> [UInt8] {
        switch RegularFile.read(source.path) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw Self.error(source, failure)
        }
    }

    /// That the file is there, is a file and may be read: the first test of a new image, for
    /// a build and a check alike.
    static func checkReadable(_ source: ImageSource) throws(Diagnostic) {
        if let failure = RegularFile.check(source.path) { throw error(source, failure) }
    }

    /// Why an image file could not be read, in the words of every image error.
    private static func error(_ source: ImageSource, _ failure: RegularFile.Failure) -> Diagnostic {
        failure == .missing ? error(source, "no such image file") : error(source, "cannot read this file: \(failure.reason)")
    }

    /// Decodes `source` whole, as a build does, and keeps nothing: the build's own refusals (not
    /// an image, a format Tomo does not publish, too many pixels, too tall for any thumbnail,
    /// damaged or incomplete), for a command to make before it copies the file into the site.
    /// It is `ImageInspector`'s test of an image the cache does not know, at the default widths.
    public static func verify(_ source: ImageSource) throws(Diagnostic) {
        _ = try ImageInspector(widths: defaultWidths).process(source)
    }

    /// Everything Tomo requires of a new image before making thumbnails, from its header only:
    /// a file that can be read, that libvips reads, in a format Tomo publishes, not too big.
    static func inspect(_ source: ImageSource) throws(Diagnostic) -> ImageHeader {
        try checkReadable(source)
        let header: ImageHeader
        do {
            header = try Vips.header(of: source.file)
        } catch {
            throw self.error(source, "not an image libvips can read\(Self.detail(error, source)): use JPEG, PNG or WebP")
        }
        guard acceptedFormats.contains(header.format) else {
            throw error(source, "a \(header.format.uppercased()) file, which Tomo does not publish as a photo: use JPEG, PNG or WebP")
        }
        guard header.width > 0, header.height > 0 else {
            throw error(source, "the image says it is \(header.width)×\(header.height) pixels, which is none: the file is damaged, save it again from the original")
        }
        guard header.width * header.height <= maximumPixels else {
            throw error(source, "\(header.width)×\(header.height) pixels is larger than the \(maximumPixels / 1_000_000) megapixels Tomo accepts: scale it down (a photo 8,000 pixels wide is plenty for any screen) and save it again")
        }
        return header
    }

    /// The widths a build makes of `source`, `width` × `height` pixels upright, with the
    /// `configured` widths (`TargetWidths.plan`); an error when no thumbnail of it fits WebP
    /// (`TargetWidths.fits`). The build, `tomo check` and `tomo post add` all decide here.
    static func targets(of source: ImageSource, configured: [Int], width: Int, height: Int) throws(Diagnostic) -> [Int] {
        guard TargetWidths.fits(originalWidth: width, originalHeight: height) else {
            let most = TargetWidths.maximum
            throw error(source, "\(width)×\(height) pixels is more than \(most) times as tall as it is wide, so even a thumbnail 1 pixel wide would be taller than the \(most) pixels WebP allows: crop it, or cut it into parts at most \(most) times as tall as they are wide")
        }
        return TargetWidths.plan(configured: configured, originalWidth: width, originalHeight: height)
    }

    /// Decodes `source` whole into its thumbnail `width` pixels wide, as a build makes its first
    /// one (`targets`' narrowest), and keeps nothing: a damaged or cut-off file fails here as it
    /// would in the build, with the same message. JPEGs are shrunk while they load, so this
    /// costs a fraction of the full-size decode.
    static func decode(_ source: ImageSource, width: Int) throws(Diagnostic) {
        _ = try thumbnail(width: width, source)
    }

    /// Reads only the header: enough to refuse what is not a photo and to plan the widths.
    private func newManifest(_ source: ImageSource) throws(Diagnostic) -> CacheManifest {
        let header = try Self.inspect(source)
        return CacheManifest(pipeline: pipeline, width: header.width, height: header.height, hasAlpha: header.hasAlpha, entries: [])
    }

    private static func thumbnail(width: Int, _ source: ImageSource) throws(Diagnostic) -> Thumbnail {
        do {
            return try Vips.thumbnail(of: source.file, width: width)
        } catch {
            throw self.error(source, "the image is damaged or incomplete\(Self.detail(error, source)): re-export it as JPEG, PNG or WebP")
        }
    }

    private func encode(_ thumbnail: Thumbnail, as format: ImageFormat, _ source: ImageSource) throws(Diagnostic) -> [UInt8] {
        encodes.withLock { $0 += 1 }
        let encoded: [UInt8]
        do {
            encoded = try Vips.encode(thumbnail, as: format, quality: quality)
        } catch {
            throw Self.error(source, "could not encode a \(thumbnail.width)px \(format.rawValue.uppercased()) thumbnail\(Self.detail(error, source))")
        }
        guard format == .webp else { return encoded }
        guard let stripped = WebPContainer.removingMetadata(encoded) else {
            throw Self.error(source, "libvips wrote a \(thumbnail.width)px WebP thumbnail Tomo cannot read back")
        }
        return stripped
    }

    private func processedImage(_ manifest: CacheManifest, targets: [Int], sourceHash: String, _ source: ImageSource) -> ProcessedImage {
        let name = PublishedName.stem(of: source.displayPath)
        // One head for the image's thumbnails (see `CachedFilePath`).
        let cachedHead = cache.path(named: sourceHash)
        var variants: [ImageVariant] = []
        variants.reserveCapacity(ImageFormat.allCases.count * targets.count)
        for format in ImageFormat.allCases {
            for target in targets {
                guard let entry = manifest.entry(format: format, quality: quality, target: target) else { continue }
                // Put together by appending: six names for each of 100,000 photos.
                var fileName = name
                fileName.reserveCapacity(name.utf8.count + 24)
                fileName += "-"
                fileName += entry.contentHash.prefix(8)
                fileName += "-"
                fileName += String(entry.width)
                fileName += "."
                fileName += format.fileExtension
                variants.append(ImageVariant(
                    format: format, width: entry.width, height: entry.height, fileName: fileName,
                    cached: CachedFilePath(head: cachedHead, tail: entry.cacheFileSuffix),
                    byteCount: entry.byteCount
                ))
            }
        }
        return ProcessedImage(
            displayPath: source.displayPath, width: manifest.width, height: manifest.height,
            hasAlpha: manifest.hasAlpha, variants: variants
        )
    }

    private static func detail(_ failure: VipsFailure, _ source: ImageSource) -> String {
        failure.detail(file: source.file, displayPath: source.displayPath)
    }

    static func error(_ source: ImageSource, _ message: String) -> Diagnostic {
        Diagnostic("\(source.displayPath): \(message)", at: source.referencedAt)
    }
}

/// Per-index result slots for `concurrentPerform`: each iteration initialises only its own
/// element, so no two threads touch the same memory and no lock is needed.
private struct Slots<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>?

    func fill(_ index: Int, with value: Element) {
        base?.advanced(by: index).initialize(to: value)
    }
}
