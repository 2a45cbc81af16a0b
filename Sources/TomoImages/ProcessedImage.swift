/// Every thumbnail made from one source image, and the source's upright size.
public struct ProcessedImage: Sendable, Hashable {
    public var displayPath: String
    /// The original's size after its EXIF orientation is applied.
    public var width: Int
    public var height: Int
    public var hasAlpha: Bool
    /// WebP variants first, then JPEG; each format narrowest first.
    public var variants: [ImageVariant]

    public init(displayPath: String, width: Int, height: Int, hasAlpha: Bool, variants: [ImageVariant]) {
        self.displayPath = displayPath
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.variants = variants
    }

    /// The variants of one format, narrowest first.
    public func variants(in format: ImageFormat) -> [ImageVariant] {
        variants.filter { $0.format == format }.sorted { $0.width < $1.width }
    }

    /// The widest variant of a format: the `<img src>` fallback and the source of `width`/`height`.
    public func largest(in format: ImageFormat) -> ImageVariant? {
        variants(in: format).last
    }
}
