import TomoCore
import TomoImages

/// An image as pages show it: its published thumbnails and the fields templates read.
struct PublishedImage: Sendable {
    /// The `<img src>` fallback: the widest JPEG (`media/alice/icon-3fa01c9e-256.jpg`).
    var path: String
    /// The real pixel size of that file.
    var width: Int
    var height: Int
    /// The thumbnails of each format, narrowest first, for `srcset`.
    var jpegSources: [Source]
    var webpSources: [Source]
    /// The media folder the thumbnails are published in (`media/alice`).
    var folder: String
    /// Each output path (`media/alice/icon-3fa01c9e-256.webp`) once, with the cached
    /// thumbnail's path, in the order of the variants.
    var files: [(path: String, file: CachedFilePath)]

    /// One thumbnail in a `srcset`: its path in the site and its file's real width.
    struct Source: Sendable, Hashable {
        var path: String
        var width: Int
    }

    /// Publishes `image`'s thumbnails under `folder` (`media/alice`).
    init?(_ image: ProcessedImage, folder: String) {
        guard let fallback = image.largest(in: .jpeg) else { return nil }
        self.folder = folder
        // Made for every image of every build: each output path is put together once.
        let paths = image.variants.map { folder + "/" + $0.fileName }
        files = []
        files.reserveCapacity(paths.count)
        var jpegSources: [Source] = []
        var webpSources: [Source] = []
        for (variant, path) in zip(image.variants, paths) {
            if !files.contains(where: { $0.path == path }) { files.append((path, variant.cached)) }
            switch variant.format {
            case .jpeg: jpegSources.append(Source(path: path, width: variant.width))
            case .webp: webpSources.append(Source(path: path, width: variant.width))
            }
        }
        self.jpegSources = jpegSources.sorted { $0.width < $1.width }
        self.webpSources = webpSources.sorted { $0.width < $1.width }
        path = folder + "/" + fallback.fileName
        width = fallback.width
        height = fallback.height
    }

    /// `{src, width, height, srcset, webpSrcset, loading}` for templates, every path through
    /// `address`; only the first image of a page loads at once, the others when they scroll
    /// into view.
    func view(loading: Loading, at address: SiteAddress) -> JSONValue {
        [
            "src": .string(address.path(path)),
            "width": .int(width),
            "height": .int(height),
            "srcset": .string(Self.srcset(jpegSources, at: address)),
            "webpSrcset": .string(Self.srcset(webpSources, at: address)),
            "loading": .string(loading.rawValue),
        ]
    }

    /// `"/media/alice/header-…-320.jpg 320w, …"`: descriptors are the files' real widths.
    /// Put together in one string: every card of every timeline page asks for two.
    static func srcset(_ sources: [Source], at address: SiteAddress) -> String {
        var text = ""
        for (index, source) in sources.enumerated() {
            if index > 0 { text += ", " }
            text += address.path(source.path)
            text += " \(source.width)w"
        }
        return text
    }

    enum Loading: String, Sendable {
        case eager, lazy
    }
}
