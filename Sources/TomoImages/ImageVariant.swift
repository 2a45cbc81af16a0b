import Foundation

/// One encoded thumbnail, ready to be copied (or hard-linked) into the output folder.
public struct ImageVariant: Sendable, Hashable {
    public var format: ImageFormat
    /// The encoded file's real pixel size: what a `srcset` width descriptor and `width`/`height` must say.
    public var width: Int
    public var height: Int
    /// `<name>-<hash8>-<width>.<ext>`, where hash8 starts the SHA-256 of the file's bytes, so a
    /// changed image gets a new URL and an unchanged one keeps its name.
    public var fileName: String
    /// The file in the image cache holding these bytes.
    public var cached: CachedFilePath
    /// The cached file's absolute path.
    public var path: String { cached.text }
    public var file: URL { URL(fileURLWithPath: path) }
    public var byteCount: Int

    public init(format: ImageFormat, width: Int, height: Int, fileName: String, cached: CachedFilePath, byteCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.fileName = fileName
        self.cached = cached
        self.byteCount = byteCount
    }
}
