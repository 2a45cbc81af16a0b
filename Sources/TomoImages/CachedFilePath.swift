/// The absolute path of a file to publish as it is (a cached thumbnail, icon or share card), in
/// two parts: the thumbnails of one image share the long head (`<cache folder>/<source hash>`,
/// one string for all of them) and keep only their short tails (`-q80-640.webp`, short enough to
/// be stored inline). A site of 100,000 photos holds 600,000 of these from the first build on.
public struct CachedFilePath: Sendable, Hashable, CustomStringConvertible {
    public let head: String
    public let tail: String

    public init(head: String, tail: String = "") {
        self.head = head
        self.tail = tail
    }

    /// The whole path.
    public var text: String { tail.isEmpty ? head : head + tail }

    public var description: String { text }

    /// The same path split elsewhere is the same path.
    public static func == (lhs: CachedFilePath, rhs: CachedFilePath) -> Bool {
        if lhs.head == rhs.head { return lhs.tail == rhs.tail }
        return lhs.head.utf8.count + lhs.tail.utf8.count == rhs.head.utf8.count + rhs.tail.utf8.count && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        for byte in head.utf8 { hasher.combine(byte) }
        for byte in tail.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)
    }
}
