extension StringProtocol {
    /// Whether the text holds nothing a reader sees (`Unicode.Scalar.showsAsNothing`: white
    /// space, or characters invisible on their own), or nothing at all: a name or a title like
    /// that shows as nothing.
    public var isBlank: Bool { !unicodeScalars.contains { !$0.showsAsNothing } }

    /// The regular expression (of JSON Schema and of Python alike) that a text which is not
    /// blank matches: one character outside the set `isBlank` reads, made from the same table.
    public static var notBlankPattern: String {
        "[^" + Unicode.Scalar.nothingShownRanges.map { range in
            range.count == 1 ? Self.patternEscape(range.lowerBound) : Self.patternEscape(range.lowerBound) + "-" + Self.patternEscape(range.upperBound)
        }.joined() + "]"
    }

    private static func patternEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }

    /// The text without white space (spaces, tabs, line breaks, Unicode spaces) at either end.
    /// Finds the ends by Unicode scalar and copies the UTF-8 between them in one go: Foundation's
    /// `trimmingCharacters(in:)` bridges through NSString, and rebuilding the text scalar by
    /// scalar was a tenth of loading 100,000 posts.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(decoding: utf8[first..<scalars.index(after: last)], as: UTF8.self)
    }
}

extension Unicode.Scalar {
    /// Whether the character shows as nothing on its own: white space (Unicode's White_Space:
    /// spaces, tabs, line breaks, no-break and ideographic spaces), or one of the invisible
    /// characters a name made only of them would pass for a name with (zero-width spaces and
    /// joiners, the soft hyphen, direction marks, word joiners, variation selectors, the byte
    /// order mark, Hangul fillers, the blank Braille pattern).
    public var showsAsNothing: Bool {
        // Printable ASCII, what most names start with, is in no range of the table.
        if value > 0x20 && value < 0x7F { return false }
        return Self.nothingShownRanges.contains { $0.contains(value) }
    }

    /// The characters `showsAsNothing` reads, in the Basic Multilingual Plane only, so that the
    /// schemas' pattern (`notBlankPattern`) names them with `\uXXXX` as every regular
    /// expression dialect reads it.
    static let nothingShownRanges: [ClosedRange<UInt32>] = [
        // White_Space.
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
        // Invisible on their own: the soft hyphen, the combining grapheme joiner, the Arabic
        // letter mark, Hangul fillers, Khmer inherent vowels, Mongolian selectors, zero-width
        // characters and direction marks, embeddings and overrides, word joiners and invisible
        // operators, the blank Braille pattern, variation selectors, the byte order mark.
        0xAD...0xAD, 0x34F...0x34F, 0x61C...0x61C, 0x115F...0x1160, 0x17B4...0x17B5,
        0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x2800...0x2800,
        0x3164...0x3164, 0xFE00...0xFE0F, 0xFEFF...0xFEFF, 0xFFA0...0xFFA0,
    ]
}
