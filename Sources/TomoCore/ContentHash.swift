/// A fast, stable 64-bit hash of bytes (FNV-1a), for telling versions of a file apart (ETags).
/// Not for security.
public enum ContentHash {
    public static func value(of bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
