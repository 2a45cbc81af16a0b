import Foundation
import Testing
import TomoCore
@testable import TomoSite

/// Drafts and posts dated after the build are not published, by `tomo build` or a `tomo serve`
/// session, unless asked for (`drafts`, `future`); a future post is published by the first
/// build at or after its date, without any file changing.
@Suite struct DraftAndFuturePostTests {
    /// The future post's date.
    static let due = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z
    static let before = due.addingTimeInterval(-60)

    /// Strings only the draft post, the draft page and the future post hold.
    static let draftMarkers = ["mkdraftslug", "mkdraftcaption", "mkdraftphoto", "mkdraftpage", "mkdrafttitle"]
    static let futureMarkers = ["mkfutureslug", "mkfuturecaption", "mkfuturephoto"]

    /// Alice with a published post, a draft post, a draft page, a future post and an item that
    /// goes half a minute before the post is due.
    static func site() throws -> SiteFolder {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nitems:\n  - text: Leaving\n    until: \(ISO8601DateFormatter().string(from: due.addingTimeInterval(-30)))\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/alice/sunset.md": "---\nphoto: sunset.jpg\ndate: 2026-05-01T10:00:00Z\nalt: A sunset\n---\nEvening\n",
            "content/posts/alice/mkdraftslug.md": "---\nphoto: mkdraftphoto.jpg\ndate: 2026-05-02T10:00:00Z\nalt: A draft\ndraft: true\n---\nmkdraftcaption\n",
            "content/posts/alice/mkfutureslug.md": "---\nphoto: mkfuturephoto.jpg\ndate: 2030-01-01T09:00:00+09:00\nalt: Later\n---\nmkfuturecaption\n",
            "content/pages/mkdraftpage.md": "---\ntitle: mkdrafttitle\ndraft: true\n---\nSoon\n",
            "content/pages/about.md": "---\ntitle: About\ndraft: false\n---\nUs\n",
        ])
        for photo in ["sunset", "mkdraftphoto", "mkfuturephoto"] {
            try site.write("content/posts/alice/\(photo).jpg", bytes: PostPagesTests.photo)
        }
        return site
    }

    /// The markers of `markers` that a file name or a file's bytes hold.
    static func found(_ markers: [String], in files: [String: [UInt8]]) -> [String] {
        markers.filter { marker in
            files.contains { path, bytes in path.contains(marker) || bytes.firstRange(of: Array(marker.utf8)) != nil }
        }
    }

    static func bytes(_ files: [String: String]) -> [String: [UInt8]] {
        files.mapValues { Array($0.utf8) }
    }

    @Test func aBuildPublishesNoDraftAndNoFuturePostUnlessAsked() throws {
        let site = try Self.site()
        let report = try site.build(date: Self.before)
        let published = Self.bytes(site.outputFiles())
        #expect(Self.found(Self.draftMarkers + Self.futureMarkers, in: published) == [])
        // The scan can see: the published post, its thumbnail and the other page are there.
        #expect(published["alice/posts/sunset/index.html"] != nil)
        #expect(published.keys.contains { $0.hasPrefix("media/alice/sunset-") })
        #expect(published["about/index.html"] != nil)

        let elsewhere = site.root.appendingPathComponent("asked")
        let draftsReport = try SiteBuilder.build(BuildOptions(site: site.root, output: elsewhere, buildDate: Self.before, drafts: true))
        // Counted as what they are: pages and thumbnails of the build that publishes them only.
        #expect(draftsReport.pages > report.pages && draftsReport.images > report.images)
        let withDrafts = Self.bytes(SiteFolder.files(in: elsewhere))
        #expect(Self.found(Self.draftMarkers, in: withDrafts) == Self.draftMarkers)
        #expect(Self.found(Self.futureMarkers, in: withDrafts) == [])
        #expect(withDrafts["mkdraftpage/index.html"] != nil && withDrafts["alice/posts/mkdraftslug/index.html"] != nil)

        try SiteBuilder.build(BuildOptions(site: site.root, output: elsewhere, buildDate: Self.before, future: true))
        let withFuture = Self.bytes(SiteFolder.files(in: elsewhere))
        #expect(Self.found(Self.futureMarkers, in: withFuture) == Self.futureMarkers)
        #expect(Self.found(Self.draftMarkers, in: withFuture) == [])
    }

    /// `tomo check` takes the options that change what a build publishes, and fails exactly
    /// when a build with the same ones does: here a `static/` file in the place of the draft
    /// page, and one in the place of the future post's page.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func checkFailsExactlyWhenABuildWithTheSameOptionsDoes(drafts: Bool, future: Bool) throws {
        let site = try Self.site()
        try site.write("static/mkdraftpage/index.html", "<p>mine</p>\n")
        try site.write("static/alice/posts/mkfutureslug/index.html", "<p>mine</p>\n")
        let options = BuildOptions(site: site.root, buildDate: Self.before, drafts: drafts, future: future)
        let checked = SiteChecker.check(options).errors.map(\.description)
        let built: [String]
        do {
            _ = try SiteBuilder.build(options)
            built = []
        } catch {
            built = error.diagnostics.map(\.description)
        }
        #expect(checked == built)
        #expect(checked.contains { $0.hasPrefix("static/mkdraftpage/index.html:") } == drafts)
        #expect(checked.contains { $0.hasPrefix("static/alice/posts/mkfutureslug/index.html:") } == future)
    }

    /// The same output, unchanged files and all: `tomo build --drafts` after `tomo build` is no
    /// "nothing changed".
    @Test func askingForDraftsIntoTheSameOutputPublishesThem() throws {
        let site = try Self.site()
        try site.build(date: Self.before)
        let report = try SiteBuilder.build(BuildOptions(site: site.root, buildDate: Self.before, drafts: true))
        #expect(!report.nothingChanged)
        #expect(site.page("alice/posts/mkdraftslug/index.html") != nil)
        try site.build(date: Self.before)
        #expect(site.page("alice/posts/mkdraftslug/index.html") == nil)
        #expect(site.page("mkdraftpage/index.html") == nil)
    }

    @Test func anUnchangedSiteBuiltAtTheDatePublishesTheFuturePost() throws {
        let site = try Self.site()
        try site.build(date: Self.before)
        #expect(site.page("alice/posts/mkfutureslug/index.html") == nil)
        // The item's moment passes first: profile pages change, the post still waits.
        let itemGone = try site.build(date: Self.due.addingTimeInterval(-20))
        #expect(!itemGone.nothingChanged)
        #expect(site.page("alice/posts/mkfutureslug/index.html") == nil)
        #expect(try site.build(date: Self.due.addingTimeInterval(-1)).nothingChanged)
        let due = try site.build(date: Self.due)
        #expect(!due.nothingChanged)
        #expect(site.page("alice/posts/mkfutureslug/index.html")?.contains("mkfuturecaption") == true)
        #expect(site.page("feed.xml")?.contains("mkfutureslug") == true)
        #expect(try site.outputFiles() == site.fullBuild(at: Self.due))
        #expect(try site.build(date: Self.due.addingTimeInterval(3600)).nothingChanged)
    }

    @Test func aSessionPublishesTheFuturePostWhenItsMomentComes() throws {
        let site = try Self.site()
        let session = SiteSession(options: BuildOptions(site: site.root, buildDate: Self.before))
        var served = TimedItemsTests.Served()
        served.apply(try session.buildAll())
        #expect(Self.found(Self.draftMarkers + Self.futureMarkers, in: served.files) == [])
        var moments: [Date] = []
        while let next = session.nextChange, moments.count < 3 {
            moments.append(next)
            served.apply(try session.rebuild(changedPaths: [], buildDate: next))
            #expect(served.files == (try TimedItemsTests.freshBuild(site, at: next)), "at \(next)")
        }
        #expect(moments == [Self.due.addingTimeInterval(-30), Self.due])
        #expect(Self.found(Self.futureMarkers, in: served.files) == Self.futureMarkers)
        #expect(Self.found(Self.draftMarkers, in: served.files) == [])
        // Back before the date (a clock set back), the post goes again.
        served.apply(try session.rebuild(changedPaths: [], buildDate: Self.before))
        #expect(served.files == (try TimedItemsTests.freshBuild(site, at: Self.before)))
        #expect(Self.found(Self.futureMarkers, in: served.files) == [])
    }

    @Test func aSessionWithDraftsAndFutureShowsThemAndAnEditPublishesADraft() throws {
        let site = try Self.site()
        let asked = try SiteSession(options: BuildOptions(site: site.root, buildDate: Self.before, drafts: true, future: true)).buildAll().files
        #expect(Self.found(Self.draftMarkers + Self.futureMarkers, in: asked) == Self.draftMarkers + Self.futureMarkers)

        let session = SiteSession(options: BuildOptions(site: site.root, buildDate: Self.before))
        var served = TimedItemsTests.Served()
        served.apply(try session.buildAll())
        try site.write("content/posts/alice/mkdraftslug.md", "---\nphoto: mkdraftphoto.jpg\ndate: 2026-05-02T10:00:00Z\nalt: A draft\n---\nmkdraftcaption\n")
        try site.write("content/pages/mkdraftpage.md", "---\ntitle: mkdrafttitle\n---\nSoon\n")
        served.apply(try session.rebuild(changedPaths: ["content/posts/alice/mkdraftslug.md", "content/pages/mkdraftpage.md"]))
        #expect(served.files == (try TimedItemsTests.freshBuild(site, at: Self.before)))
        #expect(Self.found(Self.draftMarkers, in: served.files) == Self.draftMarkers)
    }
}
