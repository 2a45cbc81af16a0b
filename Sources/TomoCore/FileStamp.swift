import Foundation

/// What identifies one version of a file without reading it: size, inode and the modification
/// and status-change times. An edit, an atomic save (new inode) or a copy over the file all
/// change it.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    public var inode: UInt64
    public var modified: Int64
    public var changed: Int64

    public init(size: Int64, inode: UInt64, modified: Int64, changed: Int64) {
        self.size = size
        self.inode = inode
        self.modified = modified
        self.changed = changed
    }

    public init(_ status: stat) {
        self.init(
            size: Int64(status.st_size),
            inode: UInt64(status.st_ino),
            // Wrapping: a file dated after 2262 (`touch -d 2999-01-01`) has more nanoseconds than
            // Int64 holds, and a stamp only has to change when the file does.
            modified: Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec),
            changed: Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec)
        )
    }

    /// The stamp of the file at `path` (following links), or nil when there is none. stat(2), not
    /// FileManager.attributesOfItem: that one also looks up the owner's account name, which
    /// reads /etc/nsswitch.conf on every call.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// One number for the stamp, to fold into fingerprints.
    public var digest: UInt64 {
        var hasher = StableHasher()
        hasher.add(UInt64(bitPattern: size))
        hasher.add(inode)
        hasher.add(UInt64(bitPattern: modified))
        hasher.add(UInt64(bitPattern: changed))
        return hasher.value
    }
}

/// A 64-bit hash that is the same in every run (Swift's `Hasher` is seeded per process), for
/// fingerprints kept between builds. FNV-1a style over whole words; not for security.
public struct StableHasher: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ word: UInt64) {
        value = (value ^ word) &* 0x0000_0100_0000_01B3
        value ^= value >> 29
    }

    public mutating func add(_ text: String) {
        add(ContentHash.value(of: text.utf8))
        add(UInt64(text.utf8.count))
    }

    public mutating func add(_ text: String?) {
        if let text { add(text) } else { add(UInt64.max) }
    }

    /// Whole words at a time: output pages are hashed on every build.
    public mutating func add(bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(raw: $0) }
    }

    public mutating func add(raw buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= buffer.count {
            add(buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<buffer.count { tail = tail << 8 | UInt64(buffer[index]) }
        add(tail)
        add(UInt64(buffer.count))
    }
}
