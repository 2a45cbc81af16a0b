import Foundation
import Testing
import TomoCore
import TomoTestSupport

/// BCP 47 tags as RFC 5646 writes them: which are well-formed, their canonical case, the
/// fallbacks labels are looked up along, and the schema's pattern agreeing with the reader.
@Suite struct LanguageTagTests {
    @Test(arguments: [
        ("en", "en"), ("JA", "ja"), ("zh-hans-tw", "zh-Hans-TW"), ("sr-latn-rs", "sr-Latn-RS"), ("es-419", "es-419"),
        ("de-CH-1996", "de-CH-1996"), ("sl-rozaj-biske", "sl-rozaj-biske"), ("zh-yue-HK", "zh-yue-HK"),
        ("en-US-u-CA-gregory", "en-US-u-ca-gregory"), ("en-US-x-Twain", "en-US-x-twain"), ("x-whatever", "x-whatever"),
        ("i-KLINGON", "i-klingon"), ("en-gb-oed", "en-GB-oed"), ("zh-min-nan", "zh-min-nan"), ("qaa", "qaa"),
    ])
    func wellFormedTagsAreReadInCanonicalCase(written: String, canonical: String) {
        #expect(LanguageTag(written)?.text == canonical)
        #expect(LanguageTag.problem(written) == nil)
    }

    @Test(arguments: [
        "", "e", "en_US", "en-", "-en", "en--US", "123", "en-US-a", "en-a-b-c", "x", "en-x", "toolonglanguage",
        "en-abcdefghi", "de-DE-DE", "ja-Jpan-Jpan", "日本語", "en US", "fr-1", "en-US-x-toolongsubtag",
    ])
    func malformedTagsAreRefusedWithAReason(written: String) {
        #expect(LanguageTag(written) == nil)
        #expect(LanguageTag.problem(written)?.hasPrefix("\"\(written)\" is not a BCP 47 language tag: ") == true)
    }

    /// RFC 5646 allows each variant and each extension once, and HTML checkers refuse a tag
    /// that repeats one ("Bad variant subtag"); a private part may repeat anything.
    @Test func aRepeatedVariantOrExtensionIsRefused() throws {
        let pattern = try NSRegularExpression(pattern: LanguageTag.pattern)
        func patternMatches(_ text: String) -> Bool { pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        let repeatedVariants = "en-" + Array(repeating: "abcdefgh", count: 500).joined(separator: "-")
        for (tag, problem) in [
            ("de-CH-1996-1996", "the variant \"1996\" is written twice: write each variant once"),
            ("sl-rozaj-biske-ROZAJ", "the variant \"ROZAJ\" is written twice: write each variant once"),
            ("en-a-bb-a-cc", "the extension \"a\" is written twice: put all its subtags after the first -a-"),
            ("en-U-ca-gregory-u-nu-latn", "the extension \"u\" is written twice: put all its subtags after the first -u-"),
        ] {
            #expect(LanguageTag(tag) == nil, "\(tag)")
            #expect(LanguageTag.problem(tag) == "\"\(tag)\" is not a BCP 47 language tag: \(problem)")
        }
        // The schema's pattern sees a repeat in one letter case (a backreference has no case flag).
        for tag in ["de-CH-1996-1996", "en-a-bb-a-cc", "en-abcdefgh-abcdefgh"] { #expect(!patternMatches(tag), "\(tag)") }
        #expect(LanguageTag(repeatedVariants) == nil && !patternMatches(repeatedVariants))
        for tag in ["en-x-a-a", "en-x-abcde-abcde", "en-u-abcde-abcde", "en-1996-u-1996", "en-a-bb-b-cc", "abcde-abcde"] {
            #expect(LanguageTag(tag) != nil && patternMatches(tag), "\(tag)")
        }
    }

    /// At most 64 characters, by the reader and the schema's pattern alike.
    @Test func aTagLongerThanTomoTakesIsRefused() throws {
        let pattern = try NSRegularExpression(pattern: LanguageTag.pattern)
        let longest = "en-x-" + Array(repeating: "ab", count: 20).joined(separator: "-")
        let tooLong = longest + "c"
        #expect(longest.count == 64 && LanguageTag(longest) != nil)
        #expect(pattern.firstMatch(in: longest, range: NSRange(longest.startIndex..., in: longest)) != nil)
        #expect(LanguageTag.problem(tooLong) == "\"\(tooLong)\" is not a BCP 47 language tag: it is 65 characters long, and tomo takes tags of at most 64: write the language with at most a script, a region and what they need (en-US)")
        #expect(pattern.firstMatch(in: tooLong, range: NSRange(tooLong.startIndex..., in: tooLong)) == nil)
    }

    @Test func anUnderscoreGetsTheHyphenatedFix() {
        #expect(LanguageTag.problem("pt_BR") == "\"pt_BR\" is not a BCP 47 language tag: subtags are joined by hyphens, so write pt-BR")
    }

    @Test(arguments: [
        ("zh-Hans-TW", ["zh-Hans-TW", "zh-Hans", "zh", "en"]),
        ("en-US-x-twain", ["en-US-x-twain", "en-US", "en"]),
        ("de-CH-1996", ["de-CH-1996", "de-CH", "de", "en"]),
        ("en-GB", ["en-GB", "en"]),
        ("en", ["en"]),
        ("ja", ["ja", "en"]),
        ("x-private", ["x-private", "en"]),
    ])
    func fallbacksDropOneSubtagAtATimeAndEndInEnglish(tag: String, chain: [String]) throws {
        #expect(try #require(LanguageTag(tag)).fallbacks.map(\.text) == chain)
    }

    /// The schema's pattern and the reader call the same strings tags: drawn from the pieces
    /// tags are made of, so that both near misses and real tags come up often.
    @Test func thePatternAgreesWithTheReaderOnDrawnStrings() throws {
        let pattern = try NSRegularExpression(pattern: LanguageTag.pattern)
        var random = SplitMix64(seed: 47)
        let pieces = ["en", "EN", "zh", "hans", "Latn", "TW", "419", "1996", "rozaj", "abc", "x", "u", "a", "ca", "gregory",
                      "i", "klingon", "toolongpiece", "9", "1a2b", "", "_", "é", "oed", "GB", "sgn", "BE", "FR"]
        var agreed = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...6, using: &random)
            let text = (0..<count).map { _ in random.pick(pieces) }.joined(separator: "-")
            let matches = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(matches == (LanguageTag(text) != nil), "\(text)")
            if matches { agreed += 1 }
        }
        // Enough of the drawn strings are tags for the agreement to mean something.
        #expect(agreed > 1_000)
    }
}
