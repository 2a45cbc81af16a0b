import Foundation
import Testing
import TomoTestSupport

/// A display name or title may hold bidirectional formatting characters; one left open (U+202E
/// RIGHT-TO-LEFT OVERRIDE) must not run on into the text the page adds after it in a `<title>`,
/// `og:title`, `twitter:title`, an image's `og:image:alt` or a feed's title, where no `<bdi>`
/// can stand, and in a heading or text the theme's words make with it ("{name}'s timeline"):
/// each such value is put between FSI (U+2068) and PDI (U+2069). A value shown alone in page
/// text (laid out by its markup) and values without such characters stay as written.
@Suite struct TitleBidiIsolationTests {
    static let override = "\u{202E}", fsi = "\u{2068}", pdi = "\u{2069}"

    func built() throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: Site\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: \"Alice\(Self.override)\"\nicon: alice/icon.jpg\n",
            "content/users/carol.yaml": "name: Carol\n",
            // A PDI of its own that closes nothing would end the isolate early: it is dropped.
            "content/pages/about.md": "---\ntitle: \"\(Self.pdi)About\(Self.override)\"\n---\nText\n",
        ])
        try site.copy(CheckMatchesBuildTests.demoPhoto, to: "content/users/alice/icon.jpg")
        let result = runTomo(["build"], in: site.url)
        try #require(result.status == 0, "\(result.error)")
        return site
    }

    func page(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("public/" + path), encoding: .utf8)
    }

    @Test func aValueWithAnOpenOverrideIsIsolatedInTitlesAndMetaText() throws {
        let site = try built()
        let alice = "\(Self.fsi)Alice\(Self.override)\(Self.pdi)"
        let profile = try page(site, "alice/index.html")
        #expect(profile.contains("<title>\(alice) (@alice) · Site</title>"), "\(profile)")
        #expect(profile.contains(#"<meta property="og:title" content="\#(alice) (@alice) · Site">"#))
        #expect(profile.contains(#"<meta name="twitter:title" content="\#(alice) (@alice) · Site">"#))
        // The share card's alt text.
        #expect(profile.contains(#"<meta property="og:image:alt" content="\#(alice) (@alice)"#), "\(profile)")
        // Page text is left to the markup: the heading shows the name as written.
        #expect(profile.contains(#"<h1 class="name p-name" dir="auto">Alice\#(Self.override)</h1>"#))

        let timeline = try page(site, "alice/timeline/index.html")
        #expect(timeline.contains("<title>\(alice)&#39;s timeline · Site</title>"), "\(timeline)")
        #expect(timeline.contains(#"<meta property="og:image:alt" content="\#(alice)&#39;s icon">"#), "\(timeline)")
        // A heading or text the theme's words make with the name in it is one text, where no
        // markup isolates the name: it is isolated as in a title.
        #expect(timeline.contains("<h1>\(alice)&#39;s timeline</h1>"), "\(timeline)")
        #expect(timeline.contains("posts by \(alice) and the people they follow"), "\(timeline)")
        let followers = try page(site, "alice/followers/index.html")
        #expect(followers.contains("<title>People who follow \(alice) · Site</title>"), "\(followers)")
        #expect(followers.contains("<h1>People who follow \(alice)</h1>"), "\(followers)")
        let following = try page(site, "alice/following/index.html")
        #expect(following.contains("<h1>People \(alice) follows</h1>"), "\(following)")

        let about = try page(site, "about/index.html")
        #expect(about.contains("<title>\(Self.fsi)About\(Self.override)\(Self.pdi) · Site</title>"), "\(about)")
        let feed = try page(site, "alice/feed.xml")
        #expect(feed.contains("<title>\(alice) · Site</title>"), "\(feed)")
    }

    @Test func aValueWithoutFormattingCharactersIsWrittenAsItIs() throws {
        let site = try built()
        let carol = try page(site, "carol/index.html")
        #expect(carol.contains("<title>Carol (@carol) · Site</title>"), "\(carol)")
        // (The about page's title, with its PDI, is in the navigation as written.)
        #expect(!carol.contains(Self.fsi))
    }
}

extension TitleBidiIsolationTests {
    /// A value that leaves an isolate open (U+2067 RIGHT-TO-LEFT ISOLATE after an override):
    /// each of its isolates is closed before the PDI that closes the FSI, so nothing after the
    /// value is reversed.
    @Test func aValueLeavingAnIsolateOpenIsClosedWhole() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: Site\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: \"Alice\\u202E\\u2067\"\n",
        ])
        #expect(runTomo(["build"], in: site.url).status == 0)
        let closed = "\(Self.fsi)Alice\(Self.override)\u{2067}\(Self.pdi)\(Self.pdi)"
        let timeline = try String(contentsOf: site.url.appendingPathComponent("public/alice/timeline/index.html"), encoding: .utf8)
        #expect(timeline.contains("<h1>\(closed)&#39;s timeline</h1>"), "\(timeline)")
        #expect(timeline.contains("<title>\(closed)&#39;s timeline · Site</title>"), "\(timeline)")
    }
}
