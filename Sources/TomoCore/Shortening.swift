extension StringProtocol {
    /// The text cut to at most `limit` characters (grapheme clusters, so an emoji sequence or an
    /// accented letter is never split), ending with "…" when it was cut. The cut falls at the last
    /// word boundary that keeps at least half the text: a space, or either side of a CJK
    /// character (Chinese, Japanese and Korean are written without spaces). A text with no such
    /// boundary in reach (one very long word) is cut at a character.
    public func shortened(toAtMost limit: Int) -> String {
        let characters = Array(self)
        guard characters.count > limit else { return String(self) }
        guard limit > 1 else { return limit == 1 ? "…" : "" }
        let room = limit - 1  // the ellipsis takes one character
        var cut = room
        for position in stride(from: room, through: Swift.max(room / 2, 1), by: -1)
        where Self.isWordBoundary(between: characters[position - 1], and: characters[position]) {
            cut = position
            break
        }
        return String(characters[..<cut]).trimmingWhitespace() + "…"
    }

    private static func isWordBoundary(between before: Character, and after: Character) -> Bool {
        after.isWhitespace || before.isWhitespace || isWrittenWithoutSpaces(before) || isWrittenWithoutSpaces(after)
    }

    /// CJK ideographs, kana, Hangul and their punctuation and full-width forms.
    private static func isWrittenWithoutSpaces(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x2E80...0x9FFF).contains(scalar) || (0xAC00...0xD7AF).contains(scalar)
            || (0xF900...0xFAFF).contains(scalar) || (0xFF00...0xFFEF).contains(scalar)
            || (0x20000...0x3FFFF).contains(scalar)
    }
}

extension StringProtocol {
    /// The text as a message quotes what someone typed or wrote (a handle, a slug, a post id):
    /// in double quotes, whole when it has at most `limit` characters; longer, its first `limit`
    /// characters and "…", then how long it is: `"xxxx…" (1,000,000 characters)`. A message
    /// about a value a million characters long stays a line long.
    public func quotedShortened(keeping limit: Int = 40) -> String {
        let length = count
        guard length > limit else { return "\"\(self)\"" }
        return "\"\(prefix(limit))…\" (\(Self.grouped(length)) characters)"
    }

    /// Any other value a message quotes (a path, a date, a word where one of a list goes, a
    /// key), as `quotedShortened` quotes it, whole up to 100 characters: a path or an address is
    /// longer than a handle, and is still found in the message whole.
    public var quotedValue: String { quotedShortened(keeping: 100) }

    /// `1000000` as `1,000,000`.
    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
