/// How many terminal columns text takes, to line up columns of names in any script.
///
/// Per character (grapheme cluster), by its first scalar: two columns for the East Asian Wide
/// and Fullwidth blocks (CJK ideographs and punctuation, kana, Hangul, fullwidth forms) and for
/// emoji shown as emoji (`isEmojiPresentation`, or a U+FE0F variation selector); none for a
/// cluster that is only a mark or a format character; one for everything else. That is the
/// rule terminals follow for these scripts (wcwidth), without the rarely used ambiguous-width
/// characters, which count one as most terminals outside East Asian locales show them.
enum DisplayWidth {
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
        return wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// The longest start of `text` that fits in `columns`.
    static func prefix(_ text: String, columns: Int) -> String {
        var used = 0
        var end = text.startIndex
        for character in text {
            used += of(character)
            if used > columns { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// East Asian Width W and F (Unicode's EastAsianWidth.txt, merged into blocks).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x20000...0x2FFFD,  // CJK extensions B to F
        0x30000...0x3FFFD,  // CJK extension G and later
    ]
}
