/// Rewrites a WebP file's RIFF container without its metadata chunks.
///
/// libvips 8.14's webpsave ignores `strip` and, even when the image has no metadata left, writes
/// a fresh EXIF chunk (resolution, orientation 1, pixel size). The only dependable way to
/// publish a WebP with no metadata at all is to drop those chunks from the encoded bytes.
enum WebPContainer {
    static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// VP8X flag bits announcing ICC (0x20), EXIF (0x08) and XMP (0x04).
    static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// The same image without EXIF, XMP and ICC chunks; nil when `bytes` is not a well-formed
    /// WebP file (then nothing should be published).
    static func removingMetadata(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        var kept: [(name: String, body: ArraySlice<UInt8>)] = []
        var offset = 12
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return nil }
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian32(bytes, at: offset + 4))
            let end = offset + 8 + size
            guard end <= bytes.count else { return nil }
            if !metadataChunks.contains(name) {
                kept.append((name, bytes[(offset + 8)..<end]))
            }
            offset = end + (size & 1)  // chunks are padded to even sizes
        }
        if let index = kept.firstIndex(where: { $0.name == "VP8X" }), let flagOffset = kept[index].body.indices.first {
            var header = kept[index].body
            header[flagOffset] &= ~metadataFlags
            kept[index].body = header
            // With no feature left (no alpha, no animation), the plain "simple" layout is valid and smaller.
            let bitstreams = kept.filter { $0.name == "VP8 " || $0.name == "VP8L" }
            if header[flagOffset] == 0, kept.count == 2, bitstreams.count == 1 {
                kept.remove(at: index)
            }
        }
        var output = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        for chunk in kept {
            output += Array(chunk.name.utf8)
            output += littleEndianBytes(UInt32(chunk.body.count))
            output += chunk.body
            if chunk.body.count & 1 == 1 { output.append(0) }
        }
        let riffSize = littleEndianBytes(UInt32(output.count - 8))
        output.replaceSubrange(4..<8, with: riffSize)
        return output
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }
}
