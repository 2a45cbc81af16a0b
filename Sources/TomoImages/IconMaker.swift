import Foundation
import TomoCore

/// The site icon's square PNG files, one per size browsers and home screens ask for, made with
/// libvips from one image (the middle of it, cropped square) and kept in the image cache by the
/// SHA-256 of the source bytes, so a rebuild encodes nothing.
public struct IconMaker: Sendable {
    /// 32 for a browser tab, 180 for an Apple home screen, 192 and 512 for an Android one.
    public static let sizes = [32, 180, 192, 512]
    /// Bump when a change here alters the output bytes.
    static let pipelineVersion = 2

    /// One made size: its published name and the cached file.
    public struct Icon: Sendable, Hashable {
        public var size: Int
        /// `site-icon-<hash8>-<size>.png`: a changed icon gets a new URL.
        public var fileName: String
        public var path: String
    }

    private let cache: ImageCache
    /// Whether cached icons are made again and replaced when their bytes differ (`tomo build
    /// --full`): a published icon is a link to its cached file, which an edit in place changes.
    private let verifiesCache: Bool

    public init(cacheFolder: URL, verifiesCache: Bool = false) throws(Diagnostic) {
        _ = try ImageProcessor.libvipsVersion()
        cache = try ImageCache(folder: cacheFolder)
        self.verifiesCache = verifiesCache
    }

    /// The icons of `source`, tested as every published image is (`ImageProcessor.inspect`).
    public func icons(of source: ImageSource) throws(Diagnostic) -> [Icon] {
        _ = try ImageProcessor.inspect(source)
        let bytes: [UInt8]
        switch RegularFile.read(source.path) {
        case .success(let read): bytes = read
        case .failure(let failure): throw ImageProcessor.error(source, "cannot read this file: \(failure.reason)")
        }
        let hash = SHA256.hex(of: bytes)
        var icons: [Icon] = []
        for size in Self.sizes {
            let name = "icon-\(hash)-\(size)-v\(Self.pipelineVersion).png"
            let cached = cache.stamp(named: name) != nil
            if !cached || verifiesCache {
                let square = try Self.square(of: source, size: size)
                let encoded: [UInt8]
                do {
                    encoded = try Vips.encodePNG(square)
                } catch {
                    throw ImageProcessor.error(source, "could not encode a \(size)px PNG icon\(error.detail(file: source.file, displayPath: source.displayPath))")
                }
                // An intact cached icon keeps its file, and the published link to it.
                if !cached || (try? RegularFile.read(cache.path(named: name)).get()) != encoded {
                    try cache.store(encoded, named: name)
                }
            }
            icons.append(Icon(size: size, fileName: "site-icon-\(hash.prefix(8))-\(size).png", path: cache.path(named: name)))
        }
        Vips.releaseThreadMemory()
        return icons
    }

    /// What `icons` would publish, for `tomo check`: the same tests, the image decoded whole as
    /// `icons` decodes it (one image: no cache is consulted), nothing encoded or written. The
    /// paths are the source's own.
    public static func inspect(_ source: ImageSource) throws(Diagnostic) -> [Icon] {
        // libvips started first: a check of a site whose only image is its icon starts it here.
        _ = try ImageProcessor.libvipsVersion()
        _ = try ImageProcessor.inspect(source)
        _ = try square(of: source, size: sizes[0])
        Vips.releaseThreadMemory()
        return sizes.map { Icon(size: $0, fileName: "site-icon-\($0).png", path: source.path) }
    }

    /// The middle of `source`, cropped square and scaled to `size`, decoded whole: a damaged or
    /// cut-off file is an error here.
    private static func square(of source: ImageSource, size: Int) throws(Diagnostic) -> Thumbnail {
        do {
            return try Vips.thumbnail(of: source.file, width: size, square: true)
        } catch {
            throw ImageProcessor.error(source, "the image is damaged or incomplete\(error.detail(file: source.file, displayPath: source.displayPath)): re-export it as JPEG, PNG or WebP")
        }
    }
}
