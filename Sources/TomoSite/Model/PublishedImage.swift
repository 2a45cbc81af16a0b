import TomoCore
import TomoImages

/// An image as pages show it: its published thumbnails and the fields templates read.
struct PublishedImage: Sendable {
    /// The `<img src>` fallback: the widest JPEG (`media/alice/icon-3fa01c9e-256.jpg`).
    var path: String
    /// The real pixel size of that file.
    var width: Int
    var height: Int
    /// `"/media/alice/header-…-320.jpg 320w, …"`: descriptors are the files' real widths.
    var srcset: String
    var webpSrcset: String
    /// The media folder the thumbnails are published in (`media/alice`).
    var folder: String
    /// Output path (`media/alice/icon-3fa01c9e-256.webp`) → the cached thumbnail's path.
    var files: [String: String]

    /// Publishes `image`'s thumbnails under `folder` (`media/alice`).
    init?(_ image: ProcessedImage, folder: String) {
        guard let fallback = image.largest(in: .jpeg) else { return nil }
        self.folder = folder
        files = Dictionary(image.variants.map { (folder + "/" + $0.fileName, $0.path) }, uniquingKeysWith: { first, _ in first })
        path = folder + "/" + fallback.fileName
        width = fallback.width
        height = fallback.height
        srcset = image.srcset(.jpeg) { "/" + folder + "/" + $0.fileName }
        webpSrcset = image.srcset(.webp) { "/" + folder + "/" + $0.fileName }
    }

    /// `{src, width, height, srcset, webpSrcset, loading}` for templates; only the first image of
    /// a page loads at once, the others when they scroll into view.
    func view(loading: Loading) -> JSONValue {
        [
            "src": .string("/" + path),
            "width": .int(width),
            "height": .int(height),
            "srcset": .string(srcset),
            "webpSrcset": .string(webpSrcset),
            "loading": .string(loading.rawValue),
        ]
    }

    enum Loading: String, Sendable {
        case eager, lazy
    }
}
