import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoSite

/// `tomo build` after `tomo build`: what the first one kept in `.tomo-cache/build` lets the second
/// stop at once when nothing changed and render only what an edit touched; whatever it skips, the
/// output must be exactly what a full build makes.
@Suite struct IncrementalBuildTests {
    /// Alice and Bob follow each other; Bob likes Alice's post, so his name is on her post page.
    func twoFriends() throws -> SiteFolder {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nbio: Film photographer.\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/posts/alice/harbour.md": "---\nphoto: p.jpg\ndate: 2026-05-01T12:00:00+00:00\nalt: A harbour\n---\nMorning at the harbour\n",
            "content/pages/about.md": "---\ntitle: About\n---\nAbout this site.\n",
        ])
        try site.writePhoto(forPostsOf: "alice")
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.addUser("alice", at: "2026-01-01T00:00:00.000Z")
            _ = try store.addUser("bob", at: "2026-02-01T00:00:00.000Z")
            _ = try store.follow("alice", "bob")
            _ = try store.follow("bob", "alice")
            _ = try store.like("bob", PostID(handle: "alice", slug: "harbour"), visibility: .public)
            return .changed("set up")
        }
        return site
    }

    func rewrite(_ site: SiteFolder, _ path: String, _ text: String) throws {
        // A new inode and a new change time, as an editor's atomic save makes.
        Thread.sleep(forTimeInterval: 0.01)
        try site.write(path, text)
    }

    /// A file of `static/` whose name leaves no room for the temporary suffix (up to the 255
    /// bytes a name may have) is replaced by the next build as any other; two such names that
    /// begin alike stay apart.
    @Test(arguments: [246, 247, 250, 255])
    func aStaticFileWithALongNameIsRebuilt(length: Int) throws {
        let site = try twoFriends()
        let first = String(repeating: "a", count: length - 4) + ".txt"
        let second = String(repeating: "a", count: length - 5) + "b.txt"
        try site.write("static/\(first)", "one\n")
        try site.write("static/\(second)", "two\n")
        try site.build()
        try site.write("static/\(first)", "one, edited\n")
        try site.write("static/\(second)", "two, edited\n")
        try site.build()
        #expect(site.outputFiles()[first] == "one, edited\n")
        #expect(site.outputFiles()[second] == "two, edited\n")
        #expect(OutputFolder.pendingName(for: "x/" + first).utf8.count <= 2 + 255)
    }

    @Test func aRebuildWithNothingChangedStopsAfterCheckingTheInputs() throws {
        let site = try twoFriends()
        let first = try site.build()
        #expect(!first.nothingChanged)
        let second = try site.build()
        #expect(second.nothingChanged)
        #expect(second.written == 0)
        #expect((second.pages, second.images, second.files) == (first.pages, first.images, first.files))
        #expect(second.warnings.map(\.description) == first.warnings.map(\.description))
    }

    @Test func anItemEditRewritesOnlyThatUsersProfilePage() throws {
        let site = try twoFriends()
        try site.build()
        try rewrite(site, "content/users/alice.yaml", "name: Alice\nbio: Film photographer.\nitems:\n  - text: Prints for sale\n")
        let report = try site.build()
        #expect(!report.nothingChanged)
        #expect(report.written == 1)
        #expect(site.page("alice/index.html")?.contains("Prints for sale") == true)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func aNameEditReachesEveryPageThatShowsTheUser() throws {
        let site = try twoFriends()
        try site.build()
        let aboutWritten = try site.modificationDate("about/index.html")
        try rewrite(site, "content/users/bob.yaml", "name: Robert\n")
        try site.build()
        // Bob's own pages and the pages that show his card: Alice's follower and following
        // lists, the post he likes, Alice's timeline, the home page and the search index.
        #expect(site.page("alice/posts/harbour/index.html")?.contains("Robert") == true)
        #expect(site.page("alice/followers/index.html")?.contains("Robert") == true)
        #expect(try site.modificationDate("about/index.html") == aboutWritten)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func aNameEditRewritesOnlyTheTimelinePagesHoldingTheUsersPosts() throws {
        let site = try twoFriends()
        // One post per page: Alice's timeline shows Bob's newer post on page 1, her own on page 2.
        try site.write("content/site.yaml", SiteFolder.siteYAML + "pageSize: 1\n")
        try site.write("content/posts/bob/dune.md", "---\nphoto: d.jpg\ndate: 2026-06-01T12:00:00+00:00\nalt: A dune\n---\nDunes\n")
        try site.write("content/posts/bob/d.jpg", bytes: PostPagesTests.photo)
        try site.build()
        try rewrite(site, "content/users/bob.yaml", "name: Robert\n")
        try site.build()
        #expect(site.page("alice/timeline/index.html")?.contains("Robert") == true)
        #expect(try site.outputFiles() == site.fullBuild())
        // The dependency map: page 2 reads Bob's posts (they decide the paging), not his card.
        let options = BuildOptions(site: site.root)
        let plan = try SitePlan.files(for: try SiteModel.make(from: try SiteInputs.load(options), options: options))
        let inputsOf = { (path: String) -> [InputKey] in plan.first { $0.path == path }.map { Array($0.inputs) } ?? [] }
        #expect(inputsOf("alice/timeline/index.html").contains(.card("bob")))
        #expect(!inputsOf("alice/timeline/page/2/index.html").contains(.card("bob")))
        #expect(inputsOf("alice/timeline/page/2/index.html").contains(.postsOf("bob")))
        #expect(inputsOf("alice/timeline/page/2/index.html").contains(.card("alice")))
    }

    @Test func newAndDeletedPostsAddAndRemoveTheirPages() throws {
        let site = try twoFriends()
        try site.build()
        try rewrite(site, "content/posts/alice/sunset.md", "---\nphoto: p.jpg\ndate: 2026-05-02T12:00:00+00:00\nalt: Sunset\n---\nEvening\n")
        try site.build()
        #expect(site.page("alice/posts/sunset/index.html") != nil)
        #expect(try site.outputFiles() == site.fullBuild())

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/alice/harbour.md"))
        try site.build()
        #expect(site.page("alice/posts/harbour/index.html") == nil)
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("alice/posts/harbour").path))
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func storeTemplateAndPageEditsAreSeen() throws {
        let site = try twoFriends()
        try site.build()
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.unfollow("bob", "alice")
            return .changed("unfollow")
        }
        try site.build()
        #expect(try site.outputFiles() == site.fullBuild())

        try rewrite(site, "templates/404.mustache", "{{<layout}}{{$content}}<p>Lost here</p>{{/content}}{{/layout}}")
        try site.build()
        #expect(site.page("404.html")?.contains("Lost here") == true)

        try rewrite(site, "content/pages/about.md", "---\ntitle: About us\n---\nWho we are.\n")
        try site.build()
        #expect(site.page("bob/index.html")?.contains("About us") == true)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    /// Applies `change` to the store as a CLI command would.
    func changeStore(_ site: SiteFolder, _ change: (inout Store) throws(Diagnostic) -> Void) throws {
        Thread.sleep(forTimeInterval: 0.01)
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            try change(&store)
            return .changed("test")
        }
    }

    @Test func aLikeRewritesThePagesShowingThePostAndNoOthers() throws {
        let site = try twoFriends()
        try site.build()
        let bobsProfile = try site.modificationDate("bob/index.html")
        let aboutPage = try site.modificationDate("about/index.html")
        try changeStore(site) { store throws(Diagnostic) in _ = try store.unlike("bob", PostID(handle: "alice", slug: "harbour")) }
        try site.build()
        #expect(site.page("alice/posts/harbour/index.html")?.contains("Bob") == false)
        #expect(try site.modificationDate("bob/index.html") == bobsProfile)
        #expect(try site.modificationDate("about/index.html") == aboutPage)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func hidingAPostAndBlockingAUserReachEveryPageAndFeed() throws {
        let site = try twoFriends()
        try site.build()
        try changeStore(site) { store throws(Diagnostic) in _ = try store.hidePost(PostID(handle: "alice", slug: "harbour"), visibility: .public) }
        try site.build()
        #expect(site.page("alice/posts/harbour/index.html") == nil)
        #expect(site.page("feed.xml")?.contains("harbour") == false)
        #expect(try site.outputFiles() == site.fullBuild())

        try changeStore(site) { store throws(Diagnostic) in
            _ = store.unhidePost(PostID(handle: "alice", slug: "harbour"))
            _ = try store.block("bob", "alice")
        }
        try site.build()
        #expect(site.page("bob/timeline/index.html")?.contains("harbour") == false)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func aFailedBuildKeepsTheStateAndTheNextGoodOneCatchesUp() throws {
        let site = try twoFriends()
        try site.build()
        try rewrite(site, "content/users/alice.yaml", "name: [unclosed\n")
        #expect(site.buildErrors() != nil)
        try rewrite(site, "content/users/alice.yaml", "name: Alice B.\n")
        try site.build()
        #expect(site.page("alice/index.html")?.contains("Alice B.") == true)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func aDeletedOutputOrAFullBuildRendersEverythingAgain() throws {
        let site = try twoFriends()
        let first = try site.build()
        try FileManager.default.removeItem(at: site.output)
        let second = try site.build()
        #expect(!second.nothingChanged)
        #expect(second.written == first.files)

        let full = try SiteBuilder.build(BuildOptions(site: site.root, full: true))
        #expect(!full.nothingChanged)
        #expect(full.written == 0)
        #expect(full.files == first.files)
    }

    /// The `--timings` step that says how the fingerprints were made.
    static func fingerprintStep(_ report: BuildReport) -> String? {
        report.steps.map(\.name).first { $0.contains("fingerprint") }
    }

    @Test func profilePostPageAndStoreEditsUpdateTheKeptFingerprintsFromTheChangedFilesAlone() throws {
        let site = try twoFriends()
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("fingerprint its inputs") == true)
        try rewrite(site, "content/users/bob.yaml", "name: Robert\n")
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("update the fingerprints of 1 changed file") == true)
        #expect(site.page("alice/followers/index.html")?.contains("Robert") == true)
        #expect(try site.outputFiles() == site.fullBuild())

        try rewrite(site, "content/posts/alice/harbour.md", "---\nphoto: p.jpg\ndate: 2026-05-01T12:00:00+00:00\nalt: A harbour\n---\nEvening at the harbour\n")
        try rewrite(site, "content/pages/about.md", "---\ntitle: About us\n---\nWho we are.\n")
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("update the fingerprints of 2 changed files") == true)
        #expect(site.page("bob/timeline/index.html")?.contains("Evening at the harbour") == true)
        #expect(try site.outputFiles() == site.fullBuild())

        // A change of the store makes the keys of what it says again, unless it changed which
        // posts are published; a file that appeared changes more than its own keys. Then every
        // one is made.
        try changeStore(site) { store throws(Diagnostic) in _ = try store.unfollow("bob", "alice") }
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("update the fingerprints of 1 changed file") == true)
        #expect(site.page("alice/followers/index.html")?.contains("Robert") == false)
        #expect(try site.outputFiles() == site.fullBuild())
        try changeStore(site) { store throws(Diagnostic) in _ = try store.hidePost(PostID(handle: "alice", slug: "harbour"), visibility: .public) }
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("fingerprint its inputs") == true)
        #expect(site.page("alice/posts/harbour/index.html") == nil)
        #expect(try site.outputFiles() == site.fullBuild())
        try rewrite(site, "content/posts/bob/dune.md", "---\nphoto: d.jpg\ndate: 2026-06-01T12:00:00+00:00\nalt: A dune\n---\nDunes\n")
        try site.write("content/posts/bob/d.jpg", bytes: PostPagesTests.photo)
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("fingerprint its inputs") == true)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func anImageThatMovesToAnotherUsersMediaFolderRemakesThatUsersPages() throws {
        // Both show one icon file; it is published in the first user's media folder.
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nicon: shared.jpg\n",
            "content/users/bob.yaml": "name: Bob\nicon: shared.jpg\n",
        ])
        try site.write("content/users/shared.jpg", bytes: PostPagesTests.photo)
        try site.build()
        #expect(site.page("bob/index.html")?.contains("/media/alice/") == true)
        // Alice stops showing it: Bob's file did not change, but his icon is now his own.
        try rewrite(site, "content/users/alice.yaml", "name: Alice\n")
        #expect(try Self.fingerprintStep(site.build())?.hasSuffix("fingerprint its inputs") == true)
        #expect(site.page("bob/index.html")?.contains("/media/bob/") == true)
        #expect(site.page("bob/index.html")?.contains("/media/alice/") == false)
        #expect(try site.outputFiles() == site.fullBuild())
    }

    @Test func anItemThatExpiresIsTakenOffWithoutAnyFileChanging() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nitems:\n  - text: Summer sale\n    until: 2026-08-31\n"])
        let july = Date(timeIntervalSince1970: 1_782_864_000) // 2026-07-01
        try site.build(date: july)
        #expect(try site.build(date: july.addingTimeInterval(3600)).nothingChanged)
        let october = july.addingTimeInterval(92 * 86_400)
        let report = try site.build(date: october)
        #expect(!report.nothingChanged)
        #expect(site.page("alice/index.html")?.contains("Summer sale") == false)
    }
}
