/// An encoding thumbnails are published in: WebP for browsers that take it (all current ones),
/// JPEG as the `<img>` fallback.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case webp
    case jpeg

    public var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .jpeg: "jpg"
        }
    }
}
