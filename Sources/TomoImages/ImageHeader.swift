/// What an encoded image's header says (see `TomoVipsHeader`).
struct ImageHeader: Sendable, Hashable {
    var width: Int
    var height: Int
    var hasAlpha: Bool
    /// The libvips loader that recognised the bytes: "jpeg", "png", "webp", "heif", "gif", ...
    var format: String
}
