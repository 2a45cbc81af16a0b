import Testing
import TomoCore

/// Every reader places a byte offset as editors count: lines by line feed, columns in
/// characters (a UTF-8 character is one column, however many bytes it takes).
@Suite struct LineStartsTests {
    static let texts = [
        "", "a", "\n", "\n\n", "ab\ncd\n", "é\nüx\n", "日本語: 値\n  - 🙂 x\r\nlast",
        "no newline at the end", "\r\n\r\n", "key: \"a\nb\"\n\n\nz",
    ]

    /// Line and column by walking from the start, as a person counts.
    static func counted(_ offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in Array(text.utf8).prefix(max(offset, 0)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    @Test func everyOffsetIsPlacedAsItIsCounted() {
        for text in Self.texts {
            let bytes = Array(text.utf8)
            let lines = LineStarts(bytes)
            for offset in -2...(bytes.count + 2) {
                let expected = Self.counted(offset, in: text)
                for location in [lines.location(ofByte: offset, in: bytes, file: "f"), SourceLocation(ofByte: offset, in: bytes, file: "f")] {
                    #expect(location == SourceLocation(file: "f", line: expected.line, column: expected.column), "\(offset) in \(text.debugDescription)")
                }
            }
        }
    }

    @Test func aCharacterIsOneColumn() {
        let bytes = Array("name: 日本\nbio: é!".utf8)
        // "!" is byte 20: after "bio: " (5 bytes) and "é" (2 bytes) on the second line, which starts at 13.
        #expect(SourceLocation(ofByte: 20, in: bytes, file: "p.yaml").description == "p.yaml:2:7")
        #expect(SourceLocation(ofByte: 12, in: bytes, file: "p.yaml").description == "p.yaml:1:9")
    }
}
