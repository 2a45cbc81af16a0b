import Testing
import TomoCore

@Suite struct IdentifiersTests {
    /// A photo's name gives its slug as a handle suggestion reads it: accents off, full-width
    /// and other compatibility forms plain, anything else one `-`; at most the limit.
    @Test func aSlugReadsAccentedNamesAsTheirLetters() {
        #expect(Identifiers.slug(from: "ÄÖ Ü") == "ao-u")
        #expect(Identifiers.slug(from: "Crème Brûlée 2") == "creme-brulee-2")
        #expect(Identifiers.slug(from: "ＩＭＧ＿００１２") == "img-0012")
        #expect(Identifiers.slug(from: "IMG 0012") == "img-0012")
        #expect(Identifiers.slug(from: "東京") == "")
        #expect(Identifiers.slug(from: "ﬁx", limit: 1) == "f")
        #expect(Identifiers.slug(from: String(repeating: "é", count: 1_000_000)).count == 80)
    }

    @Test(arguments: ["alice", "a", "user_01", String(repeating: "x", count: 30)])
    func acceptsValidHandles(handle: String) {
        #expect(Identifiers.handleProblem(handle) == nil)
    }

    @Test(arguments: ["", "Alice", "al-ice", "../etc", "a/b", "ａlice", "posts", "404", String(repeating: "x", count: 31), "a b"])
    func rejectsHandlesThatCouldNotBeSafeFolderNames(handle: String) {
        #expect(Identifiers.handleProblem(handle) != nil)
    }

    /// What someone typed is quoted shortened: a handle or slug a million characters long gives
    /// a message a line long, with its start and its length; one of up to 40 characters is
    /// quoted whole.
    @Test func quotesALongValueShortened() {
        let long = String(repeating: "x", count: 1_000_000)
        let quoted = "\"\(String(repeating: "x", count: 40))…\" (1,000,000 characters)"
        #expect(Identifiers.handleProblem(long) == "handle \(quoted) is longer than 30 characters")
        #expect(Identifiers.slugProblem(long) == "slug \(quoted) is longer than 80 characters")
        #expect(Identifiers.slugProblem("-" + long) == "slug \"-\(String(repeating: "x", count: 39))…\" (1,000,001 characters) must start with a-z or 0-9 (try \"\(String(repeating: "x", count: 80))\")")
        let forty = String(repeating: "y", count: 40)
        #expect(Identifiers.handleProblem(forty) == "handle \"\(forty)\" is longer than 30 characters")
    }

    /// A handle or slug of other characters is told which characters to use, whatever its
    /// length in bytes: ten Japanese characters are 30 bytes, and were called "longer than 30
    /// characters". The suggestion reads only as far as it needs, so a megabyte of them is
    /// answered at once.
    @Test func otherCharactersAreTheProblemBeforeTheLength() {
        let japanese = "ユーザー名ですよねえ"
        #expect(japanese.count == 10 && japanese.utf8.count == 30)
        #expect(Identifiers.handleProblem(japanese + "x")?.contains("may use only a-z, 0-9 and _") == true)
        #expect(Identifiers.slugProblem("a" + String(repeating: "日本", count: 20))?.contains("may use only a-z, 0-9 and -") == true)
        let accents = String(repeating: "É", count: 1_000_000)
        #expect(Identifiers.handleProblem(accents) == "handle \"\(String(repeating: "É", count: 40))…\" (1,000,000 characters) may use only a-z, 0-9 and _ (try \"\(String(repeating: "e", count: 30))\")")
        let mixed = String(repeating: "aé", count: 500_000)
        #expect(Identifiers.slugProblem(mixed)?.hasSuffix("may use only a-z, 0-9 and - (try \"\(String(repeating: "ae", count: 40))\")") == true)
        let unreadable = String(repeating: "a日", count: 500_000)
        #expect(Identifiers.slugProblem(unreadable)?.hasSuffix("may use only a-z, 0-9 and - (try \"\(String(repeating: "a-", count: 39))a\")") == true)
    }

    @Test func explainsTheFix() {
        #expect(Identifiers.handleProblem("Al ice") == "handle \"Al ice\" may use only a-z, 0-9 and _ (try \"al_ice\")")
        // A slug is told the characters to use before where it may start: `Sunset` starts with a
        // letter, but not one of a-z.
        #expect(Identifiers.slugProblem("Sunset") == "slug \"Sunset\" may use only a-z, 0-9 and - (try \"sunset\")")
        #expect(Identifiers.slugProblem("_x") == "slug \"_x\" may use only a-z, 0-9 and - (try \"x\")")
        #expect(Identifiers.slugProblem("-x") == "slug \"-x\" must start with a-z or 0-9 (try \"x\")")
        #expect(Identifiers.slugProblem("日本") == "slug \"日本\" may use only a-z, 0-9 and -")
        #expect(Identifiers.handleProblem("search") == "\"search\" is reserved for the site's own pages: choose another handle")
    }

    /// The suggestion reads the handle as a person sees it: accents off, Cyrillic and Greek
    /// look-alikes as the Latin letter, and only what is left over becomes `_`.
    @Test(arguments: [
        ("alíce", "alice"), ("Ålice", "alice"), ("ｂob", "bob"),
        ("\u{0430}lice", "alice"),  // Cyrillic а
        ("\u{0410}LICE", "alice"),  // Cyrillic А
        ("\u{0440}\u{0435}\u{0441}\u{0443}\u{0445}\u{0456}\u{0455}\u{0458}\u{043E}", "pecyxisjo"),  // р е с у х і ѕ ј о
        ("\u{03BF}\u{03B1}\u{03BD}\u{03BA}\u{03C1}\u{03C4}", "oavkpt"),  // Greek ο α ν κ ρ τ
        ("ό\u{03BB}a", "o_a"),  // Greek ό: the accent comes off; λ looks like no Latin letter
        ("Al ice", "al_ice"), ("Bad!", "bad_"),
    ] as [(String, String)])
    func suggestsTheHandleThatLooksTheSame(typed: String, suggested: String) throws {
        let problem = try #require(Identifiers.handleProblem(typed))
        #expect(problem == "handle \"\(typed)\" may use only a-z, 0-9 and _ (try \"\(suggested)\")")
        #expect(Identifiers.handleProblem(suggested) == nil)
    }

    /// No suggestion is better than one that is refused in turn (a reserved word) or that keeps
    /// nothing of what was typed.
    @Test(arguments: ["\u{0440}osts", "日本", "🙂"])
    func suggestsNothingWhenNoValidHandleLooksTheSame(typed: String) {
        #expect(Identifiers.handleProblem(typed) == "handle \"\(typed)\" may use only a-z, 0-9 and _")
    }

    @Test(arguments: ["sunset", "2026-05-01-tokyo", "a", "0"])
    func acceptsValidSlugs(slug: String) {
        #expect(Identifiers.slugProblem(slug) == nil)
    }

    @Test(arguments: ["", "-start", "Sunset", "a_b", "..", "a/b", String(repeating: "x", count: 81)])
    func rejectsInvalidSlugs(slug: String) {
        #expect(Identifiers.slugProblem(slug) != nil)
    }
}
