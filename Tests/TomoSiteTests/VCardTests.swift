import Testing
@testable import TomoSite
import TomoTestSupport

/// The contact card's lines (RFC 6350, 3.2 and 3.4): at most 75 octets each, never cut inside
/// a character, unfolding to the line as written; values escaped so that no text ends a line.
@Suite struct VCardTests {
    /// Pieces whose every mix a value may hold: ASCII, what must be escaped, line breaks, two-,
    /// three- and four-byte characters, an emoji made of several scalars and control characters.
    static let pieces = ["a", "Z", " ", ",", ";", "\\", ":", "\n", "\r\n", "\r", "\t", "é", "日本", "😀", "👩‍👩‍👧", "\u{0}", "\u{7}", "\u{7F}"]

    @Test func everyLineFitsAndUnfoldsToTheValueEscaped() throws {
        var random = SplitMix64(seed: 17)
        for round in 0..<2_000 {
            let value = (0..<Int.random(in: 0...120, using: &random)).map { _ in random.pick(Self.pieces) }.joined()
            var card = VCard()
            card.add("NOTE", value)
            let bytes = card.bytes
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasSuffix("\r\n"), "round \(round)")
            let lines = text.dropLast().components(separatedBy: "\r\n")
            for line in lines {
                #expect(line.utf8.count <= VCard.lineLimit, "round \(round): \(line.utf8.count) octets")
                // A line cut inside a character would not decode to the same bytes.
                #expect(Array(String(decoding: Array(line.utf8), as: UTF8.self).utf8) == Array(line.utf8))
                #expect(!line.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }, "round \(round)")
            }
            #expect(lines.first == "BEGIN:VCARD" && lines[1] == "VERSION:4.0" && lines.last == "END:VCARD")
            // Unfolding (a CRLF followed by a space goes) gives back the one NOTE line.
            let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
            #expect(unfolded[2] == "NOTE:" + VCard.escaped(value), "round \(round)")
            #expect(Self.unescaped(VCard.escaped(value)) == Self.expected(value), "round \(round)")
        }
    }

    @Test func escapesWhatWouldEndAValueOrALine() {
        #expect(VCard.escaped(#"a,b;c\d"#) == #"a\,b\;c\\d"#)
        #expect(VCard.escaped("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(VCard.escaped("tab\tbell\u{7}nul\u{0}") == "tab\tbellnul")
    }

    /// `value` as a reader gets it back: line breaks as `\n`, control characters gone.
    static func expected(_ value: String) -> String {
        let lines = value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return String(String.UnicodeScalarView(lines.unicodeScalars.filter { $0 == "\n" || $0 == "\t" || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }))
    }

    /// RFC 6350's unescaping, as a reader does it.
    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
