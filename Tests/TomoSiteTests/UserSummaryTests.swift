import Foundation
import Testing
import TomoCore

/// A user's summary is the bio's first paragraph, shortened at a word boundary, and every place
/// that shows a user briefly shows that same text: the home page's card, the profile's
/// description and the search index the home page's search builds its results from.
@Suite struct UserSummaryTests {
    static let longParagraph = "Street photographer in Tokyo,\nmostly film, mostly at dawn, walking the old neighbourhoods of Yanaka and Nezu with a Leica and far too many rolls in every pocket of my coat."

    @Test(arguments: [
        // Two lines of one paragraph, longer than a card's summary: joined, cut after a word.
        (longParagraph + "\n\nSecond paragraph.", "Street photographer in Tokyo, mostly film, mostly at dawn, walking the old neighbourhoods of Yanaka and Nezu with a Leica and far too many rolls in every…"),
        // Markup dropped; the second paragraph is not part of it.
        ("I print **zines**.\nAnd sell them.\n\nAsk me.", "I print zines. And sell them."),
        // Japanese has no spaces: cut between characters.
        (String(repeating: "東京の路地裏で猫と夕焼けを撮っています。", count: 10), String(String(repeating: "東京の路地裏で猫と夕焼けを撮っています。", count: 10).prefix(159)) + "…"),
    ])
    func everyShortViewOfAUserShowsTheSameSummary(bio: String, summary: String) throws {
        let yamlBio = bio.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nbio: |\n\(yamlBio)\n"])
        try site.build()
        // (No summary here holds a character HTML escapes.)
        #expect(site.page("index.html")?.contains(#"<span class="summary" dir="auto" lang="en">\#(summary)</span>"#) == true)
        #expect(site.page("alice/index.html")?.contains(#"<meta name="description" content="\#(summary)">"#) == true)
        let index = try JSONParser.parse(try #require(site.page("search.json")), file: "search.json")
        #expect(index["users"]?.arrayValue?.first?["summary"]?.stringValue == summary)
    }

    /// A search result is built like the user card: the index carries the card's icon files.
    @Test func theSearchIndexCarriesEachUsersIcon() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n", "content/users/bob.yaml": "name: Bob\n"])
        try site.write("content/users/alice/icon.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        try site.build()
        let users = try JSONParser.parse(try #require(site.page("search.json")), file: "search.json")["users"]?.arrayValue ?? []
        let alice = try #require(users.first { $0["handle"]?.stringValue == "alice" })
        let home = try #require(site.page("index.html"))
        for key in ["src", "srcset", "webpSrcset"] {
            let value = try #require(alice["icon"]?[key]?.stringValue)
            #expect(home.contains(value), "the card's \(key) is \(value)")
        }
        #expect(users.first { $0["handle"]?.stringValue == "bob" }?["icon"] == nil)
    }

    /// The search heading's texts, in each language the theme has.
    @Test(arguments: [("en", "Results for “{query}”", "No user matches “{query}”."), ("ja", "「{query}」の検索結果", "「{query}」に一致するユーザーはいません。")])
    func theHomePageCarriesTheSearchHeadings(language: String, results: String, none: String) throws {
        let site = try SiteFolder(["content/site.yaml": SiteFolder.siteYAML + "language: \(language)\n", "content/users/alice.yaml": "name: Alice\n"])
        try site.build()
        let home = try #require(site.page("index.html"))
        #expect(home.contains(#"data-results="\#(results)" data-no-results="\#(none)""#))
    }
}
