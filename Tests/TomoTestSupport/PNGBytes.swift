/// PNG files written byte by byte, for tests that need an image of a shape no fixture has (a
/// strip one pixel wide and 16,384 tall) or a file that lies about its size. The pixels are
/// stored without compression (deflate's stored blocks), so no zlib is needed.
public enum PNGBytes {
    /// A `width` × `height` 8-bit grey PNG, every pixel `level`.
    public static func grey(width: Int, height: Int, level: UInt8 = 128) -> [UInt8] {
        var rows: [UInt8] = []
        rows.reserveCapacity((width + 1) * height)
        for _ in 0..<height {
            rows.append(0)  // filter: none
            rows.append(contentsOf: repeatElement(level, count: width))
        }
        return signature + chunk("IHDR", header(width: width, height: height)) + chunk("IDAT", zlibStored(rows)) + chunk("IEND", [])
    }

    /// A PNG whose header declares `width` × `height` grey pixels and whose data stops after a
    /// few bytes, as a cut-off download or a crafted file does: 69 bytes whatever the size.
    public static func headerOnly(width: Int, height: Int) -> [UInt8] {
        // A zlib header, then a stored block that promises 65,535 bytes and gives five.
        let data: [UInt8] = [0x78, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0, 0, 0, 0, 0]
        return signature + chunk("IHDR", header(width: width, height: height)) + chunk("IDAT", data) + chunk("IEND", [])
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// IHDR's 13 bytes: 8-bit grey, no interlace.
    private static func header(width: Int, height: Int) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of `bytes` in stored (uncompressed) blocks of at most 65,535 bytes.
    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            stream.append(end == bytes.count ? 1 : 0)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += bytes[start..<end]
            start = end
        } while start < bytes.count
        return stream + bigEndian(adler32(bytes))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
