import Testing
import TomoCore
import TomoTestSupport

/// The caches' binary format: every text reads back as it was written, whatever its bytes
/// (ASCII, which is only copied, or not, which is validated), and bytes that are not UTF-8 are
/// a malformed entry, never a string.
@Suite struct BinaryCodingTests {
    @Test func everyTextReadsBackAsWritten() throws {
        var random = SplitMix64(seed: 20261204)
        let pieces = ["a", "content/posts/user00042/p0001.md", "é", "日本語", "😀", "\u{301}", "\u{0}", "\u{7F}", " ", "12345678"]
        var texts: [String] = [""]
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 0...12, using: &random)).map { _ in random.pick(pieces) }.joined())
        }
        var writer = ByteWriter()
        for text in texts { writer.write(text) }
        var reader = ByteReader(writer.bytes)
        for text in texts { #expect(try reader.string() == text) }
        #expect(reader.isAtEnd)
    }

    @Test(arguments: [[0xFF], [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0xC3], [0xE6, 0x97], [0x41, 0xED, 0xA0, 0x80]] as [[UInt8]])
    func bytesThatAreNotUTF8AreMalformed(bytes: [UInt8]) {
        var reader = ByteReader([UInt8(bytes.count)] + bytes)
        #expect(throws: ByteReader.Malformed.self) { try reader.string() }
    }
}
