import Foundation

/// File bytes at an address that never moves, so libmicrohttpd can send them without a copy.
///
/// A response keeps the bytes alive by holding a retain on this object (released in the
/// response's free callback), so a snapshot can be replaced while a client is still reading.
final class StableBytes: Sendable {
    /// Written once in init, read-only afterwards; at least one byte long so that even an empty
    /// file has an address to hand to MHD.
    nonisolated(unsafe) private let storage: UnsafeMutableRawBufferPointer
    /// The number of bytes of the file.
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        // One block copy (an element-wise copy was a tenth of publishing a rebuild).
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
    }

    /// The file's bytes.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }

    /// Whether these are exactly `other`'s bytes (so a republished file can keep its responses).
    func hasSameBytes(as other: StableBytes) -> Bool {
        guard other.count == count else { return false }
        guard let theirs = other.storage.baseAddress, let ours = storage.baseAddress else { return count == 0 }
        return memcmp(theirs, ours, count) == 0
    }

    deinit {
        storage.deallocate()
    }
}
