/// Lists the metadata an encoded JPEG or WebP file carries, by walking its container structure
/// (JPEG marker segments, RIFF chunks) rather than trusting the encoder that wrote it.
enum MetadataScanner {
    /// Names of metadata blocks found ("APP1 Exif", "EXIF chunk", ...); empty when there are none.
    static func metadata(in bytes: [UInt8]) -> [String] {
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegMetadata(bytes) }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return webpMetadata(bytes)
        }
        return ["not a JPEG or WebP file"]
    }

    /// Every segment before the image data except APP0 (JFIF, which only says "this is a JPEG")
    /// counts: APP1 Exif/XMP, APP2 ICC, APP13 IPTC, COM comments.
    private static func jpegMetadata(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA { break }  // start of scan: pixels follow
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if (0xE1...0xEF).contains(marker) || marker == 0xFE {
                let label = bytes[(offset + 4)..<min(offset + 4 + 12, bytes.count)].prefix { $0 >= 0x20 && $0 < 0x7F }
                found.append("\(marker == 0xFE ? "COM" : "APP\(marker - 0xE0)") \(String(decoding: label, as: UTF8.self))")
            }
            offset += 2 + length
        }
        return found
    }

    /// EXIF, XMP and ICCP chunks, and the VP8X header flags that announce them.
    private static func webpMetadata(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if ["EXIF", "XMP ", "ICCP"].contains(name) { found.append("\(name) chunk") }
            if name == "VP8X", offset + 8 < bytes.count {
                let flags = bytes[offset + 8]
                if flags & 0x20 != 0 { found.append("VP8X ICC flag") }
                if flags & 0x08 != 0 { found.append("VP8X EXIF flag") }
                if flags & 0x04 != 0 { found.append("VP8X XMP flag") }
            }
            offset += 8 + size + (size & 1)
        }
        return found
    }

    /// Whether a WebP file carries transparency (an ALPH chunk, or a lossless VP8L bitstream with alpha).
    static func webpHasAlpha(_ bytes: [UInt8]) -> Bool {
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if name == "ALPH" { return true }
            if name == "VP8X", offset + 8 < bytes.count, bytes[offset + 8] & 0x10 != 0 { return true }
            offset += 8 + size + (size & 1)
        }
        return false
    }
}
