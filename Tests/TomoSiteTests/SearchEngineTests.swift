import Foundation
import Testing
import TomoTestSupport
import TomoCore
import TomoStore
@testable import TomoSite

/// What search engines and feed readers are told: which pages are kept out of results, which
/// have a canonical address, where the sitemap is, and when an empty feed was updated.
@Suite struct SearchEngineTests {
    /// Lists and timelines only repeat what profiles and posts show.
    static func isKeptOutOfResults(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 3 && ["followers", "following", "timeline"].contains(parts[1])
    }

    @Test func onlyListsAndEveryTimelinePageSayNoindexAndThe404PageHasNoCanonicalAddress() throws {
        let site = try PostPagesTests().graphSite(pageSize: 2)
        try site.write("content/pages/about.md", "---\ntitle: About\n---\nHi\n")
        try site.build()
        let pages = site.outputFiles().filter { $0.key.hasSuffix(".html") }
        #expect(pages["ann/timeline/page/2/index.html"] != nil, "ann's timeline is paged")
        #expect(pages.keys.filter(Self.isKeptOutOfResults).count > 12)
        let noindex = #"<meta name="robots" content="noindex">"#
        for (path, html) in pages {
            #expect(html.contains(noindex) == Self.isKeptOutOfResults(path), "\(path)")
            let canonical = html.components(separatedBy: #"<link rel="canonical" href=""#).count - 1
            let ogURL = html.components(separatedBy: #"<meta property="og:url""#).count - 1
            if path == "404.html" {
                #expect(canonical == 0 && ogURL == 0, "the 404 page is served at any missing address")
            } else {
                let url = "https://example.com/" + (path == "index.html" ? "" : String(path.dropLast("index.html".count)))
                #expect(canonical == 1 && html.contains(#"<link rel="canonical" href="\#(url)">"#), "\(path)")
                #expect(ogURL == 1, "\(path)")
            }
        }
    }

    @Test(arguments: ["https://example.com/", "https://example.github.io/mysite/"])
    func robotsTxtPointsAtTheSitemapUnderTheBaseURL(baseURL: String) throws {
        let site = try SiteFolder(["content/site.yaml": "title: Test site\nbaseURL: \(baseURL)\n", "content/users/alice.yaml": "name: Alice\n"])
        try site.build()
        #expect(site.page("robots.txt") == "User-agent: *\nAllow: /\nSitemap: \(baseURL)sitemap.xml\n")
        #expect(site.page("sitemap.xml")?.contains("<loc>\(baseURL)alice/</loc>") == true)
        try site.write("content/site.yaml", "title: Test site\nbaseURL: https://other.example/\n")
        try site.build()
        #expect(site.page("robots.txt")?.contains("Sitemap: https://other.example/sitemap.xml\n") == true)
    }

    /// The feed's own `<updated>`, read with an XML parser and as an RFC 3339 date.
    func feedUpdated(_ site: SiteFolder, _ path: String) throws -> String {
        let feed = try #require(site.page(path))
        let updated = try #require(try AtomSummary(Data(feed.utf8)).feedTexts["updated"], "\(path)")
        let date = try #require(ISO8601DateFormatter().date(from: updated), "\(path): \(updated)")
        #expect(date >= Date(timeIntervalSince1970: 946_684_800) && date <= Date().addingTimeInterval(86_400), "\(path): implausible \(updated)")
        return updated
    }

    /// `SocialPagesTests.socialSite` (Alice, Bob and Carol registered in 2026-03, 02 and 01,
    /// Dave in 04 without a profile) and Erin, with a profile but no store entry; no posts.
    func emptySite() throws -> SiteFolder {
        let site = try SocialPagesTests().socialSite()
        try site.write("content/users/erin.yaml", "name: Erin\n")
        return site
    }

    @Test func aFeedWithoutEntriesSaysWhenItsOwnerRegistered() throws {
        let site = try emptySite()
        try site.build()
        #expect(try feedUpdated(site, "alice/feed.xml") == "2026-03-01T00:00:00Z")
        #expect(try feedUpdated(site, "bob/feed.xml") == "2026-02-01T00:00:00Z")
        #expect(try feedUpdated(site, "erin/feed.xml") == "2026-03-01T00:00:00Z", "no registration time: what the site feed says")
        #expect(try feedUpdated(site, "feed.xml") == "2026-03-01T00:00:00Z", "the newest registration of a user with a profile")
        for text in site.outputFiles().values { #expect(!text.contains("1970-01-01")) }

        // Registered again later, and a first post: incremental builds make what a full one does.
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.removeUser("bob")
            _ = try store.addUser("bob", at: "2026-04-02T00:00:00.000Z")
            _ = try store.addUser("erin", at: "2026-04-03T00:00:00.000Z")
            return .changed("registered again")
        }
        try site.build()
        #expect(try feedUpdated(site, "bob/feed.xml") == "2026-04-02T00:00:00Z")
        #expect(try feedUpdated(site, "erin/feed.xml") == "2026-04-03T00:00:00Z")
        #expect(try feedUpdated(site, "feed.xml") == "2026-04-03T00:00:00Z")
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == (try site.fullBuild()).filter { $0.key != ".tomo-output" })
        try site.write("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\nalt: A photo\n---\n")
        try site.writePhoto(forPostsOf: "alice")
        try site.build()
        #expect(try feedUpdated(site, "alice/feed.xml") == "2026-05-01T18:30:00+09:00")
        #expect(try feedUpdated(site, "feed.xml") == "2026-05-01T18:30:00+09:00")
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == (try site.fullBuild()).filter { $0.key != ".tomo-output" })
    }

    /// A profile the store does not know has no registration time: its empty feed says what the
    /// site feed says (the site's newest post, else its latest registration), a date the site
    /// really has, and follows it in builds and in `tomo serve`. Only a site without any date
    /// says the fixed one.
    @Test func anEmptyFeedWithoutARegistrationSaysWhatTheSiteFeedSays() throws {
        let site = try emptySite()
        // Fred follows nobody and nobody follows him: leaving the store changes only his
        // registration and the order of users.
        try site.write("content/users/fred.yaml", "name: Fred\n")
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.addUser("fred", at: "2026-02-15T00:00:00.000Z")
            return .changed("registered")
        }
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = ChangeEngineTests.Served()
        served.apply(try session.buildAll())
        try site.build()
        #expect(try feedUpdated(site, "erin/feed.xml") == "2026-03-01T00:00:00Z", "Alice's registration, the newest")
        #expect(try feedUpdated(site, "fred/feed.xml") == "2026-02-15T00:00:00Z", "his own registration")

        // Fred leaves the store and keeps his profile; then Alice posts, in Tokyo time.
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.removeUser("fred")
            return .changed("unregistered")
        }
        served.apply(try session.rebuild(changedPaths: ["content/store.json"]))
        try site.build()
        #expect(try feedUpdated(site, "fred/feed.xml") == "2026-03-01T00:00:00Z")
        #expect(served.texts["fred/feed.xml"] == site.page("fred/feed.xml"))
        try site.write("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\nalt: A photo\n---\n")
        try site.writePhoto(forPostsOf: "alice")
        served.apply(try session.rebuild(changedPaths: ["content/posts/alice/p.md", "content/posts/alice/p.jpg"]))
        try site.build()
        for path in ["feed.xml", "alice/feed.xml", "fred/feed.xml", "erin/feed.xml"] {
            #expect(try feedUpdated(site, path) == "2026-05-01T18:30:00+09:00", "\(path)")
        }
        #expect(try feedUpdated(site, "carol/feed.xml") == "2026-01-01T00:00:00Z", "a registered user keeps her own date")
        let full = try site.fullBuild().filter { $0.key != ".tomo-output" }
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == full)
        #expect(served.texts == full)

        // No store and no post: nothing is dated, and both feeds say the fixed date.
        let undated = try SiteFolder(["content/users/erin.yaml": "name: Erin\n"])
        try undated.build()
        #expect(try feedUpdated(undated, "erin/feed.xml") == "2000-01-01T00:00:00Z")
        #expect(try feedUpdated(undated, "feed.xml") == "2000-01-01T00:00:00Z")
    }

    @Test func tomoServeUpdatesAnEmptyFeedWhenTheStoreChanges() throws {
        let site = try emptySite()
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = ChangeEngineTests.Served()
        served.apply(try session.buildAll())
        // Bob, the newest user with a profile, registered again: the order stays, a time changes.
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.removeUser("bob")
            _ = try store.addUser("bob", at: "2026-06-01T00:00:00.000Z")
            return .changed("registered again")
        }
        served.apply(try session.rebuild(changedPaths: ["content/store.json"]))
        for path in ["bob/feed.xml", "feed.xml"] {
            #expect(served.texts[path]?.contains("<updated>2026-06-01T00:00:00Z</updated>") == true, "\(path)")
        }
        #expect(served.texts == (try site.fullBuild()).filter { $0.key != ".tomo-output" })
    }
}
