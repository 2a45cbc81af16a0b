import Testing
import TomoCore

/// Bios are shortened for cards and descriptions: never mid-word where words have spaces, never
/// mid-character (a grapheme: an accented letter, an emoji sequence) anywhere.
@Suite struct ShorteningTests {
    @Test func leavesShortTextAlone() {
        #expect("Photographer in Tokyo.".shortened(toAtMost: 22) == "Photographer in Tokyo.")
        #expect("".shortened(toAtMost: 5) == "")
    }

    @Test func cutsAtTheLastSpaceAndAddsAnEllipsis() {
        #expect("Photographer in Tokyo and Osaka.".shortened(toAtMost: 20) == "Photographer in…")
        #expect("one two three".shortened(toAtMost: 8) == "one two…")
    }

    @Test func neverEndsInsideAWord() {
        let sentence = "Street photography, film cameras and long walks through the old neighbourhoods of Kyoto at dawn"
        let words = Set(sentence.split(separator: " ").map(String.init))
        // The cut keeps at least half the text, so every limit above twice the longest word
        // ("neighbourhoods") finds a space to cut at.
        for limit in 30..<sentence.count {
            let short = sentence.shortened(toAtMost: limit)
            #expect(short.count <= limit)
            #expect(short.hasSuffix("…"))
            let lastWord = String(short.dropLast().split(separator: " ").last ?? "")
            #expect(words.contains(lastWord), "limit \(limit): \(short)")
        }
    }

    @Test func cutsOneVeryLongWordAtACharacter() {
        let word = String(repeating: "a", count: 72)
        #expect(word.shortened(toAtMost: 20) == String(repeating: "a", count: 19) + "…")
        let url = "See https://example.com/" + String(repeating: "x", count: 100)
        #expect(url.shortened(toAtMost: 30).count == 30)
    }

    @Test func cutsJapaneseBetweenAnyTwoCharacters() {
        let japanese = "東京を拠点に活動する写真家です。夕焼けと路地裏の猫を撮っています。"
        #expect(japanese.shortened(toAtMost: 10) == "東京を拠点に活動す…")
        // Mixed with Latin words, the cut may fall before a CJK character.
        #expect("Tokyo 写真家 photographer".shortened(toAtMost: 9) == "Tokyo 写真…")
    }

    @Test func neverSplitsAGrapheme() {
        // A family (man ZWJ woman ZWJ girl), a flag and an accented letter made of two scalars.
        let family = "👨‍👩‍👧"
        let text = String(repeating: family, count: 10) + " 🇯🇵🇯🇵 e\u{301}e\u{301}e\u{301}"
        for limit in 1...text.count {
            let short = text.shortened(toAtMost: limit)
            #expect(short.count <= limit)
            for character in short.dropLast() where character != " " {
                #expect([Character(family), "🇯🇵", "e\u{301}"].contains(character), "limit \(limit): \(short)")
            }
        }
    }
}
