import Foundation
import Testing
import TomoCore
import TomoStore
import TomoTestSupport
@testable import TomoSite

/// The one change engine: what a page reads is what its plan names, an incremental build
/// equals a full one, and `tomo serve`'s session holds what a fresh build writes after the
/// changes the outside testers found.
@Suite struct ChangeEngineTests {
    /// A small site with posts, follows, likes, a free page and a timed item.
    static func richSite() throws -> SiteFolder {
        let jpeg = PostPagesTests.photo
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nbio: Hello\nitems:\n  - text: Soon\n    from: 2030-01-01\n  - text: Now\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/users/carol.yaml": "name: Carol\n",
            "content/pages/about.md": "---\ntitle: About\n---\nHi\n",
            "content/posts/alice/one.md": "---\nphoto: one.jpg\ndate: 2026-05-01T10:00:00Z\n---\nFirst\n",
            "content/posts/alice/two.md": "---\nphoto: two.jpg\ndate: 2026-05-02T10:00:00Z\n---\nSecond\n",
            "content/posts/bob/three.md": "---\nphoto: three.jpg\ndate: 2026-05-03T10:00:00Z\n---\nThird\n",
        ])
        for photo in ["content/posts/alice/one.jpg", "content/posts/alice/two.jpg", "content/posts/bob/three.jpg"] {
            try site.write(photo, bytes: jpeg)
        }
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            for (index, handle) in ["alice", "bob", "carol"].enumerated() {
                _ = try store.addUser(handle, at: "2026-01-0\(index + 1)T00:00:00.000Z")
            }
            _ = try store.follow("bob", "alice")
            _ = try store.follow("carol", "bob")
            _ = try store.like("bob", PostID(handle: "alice", slug: "one"), visibility: .public)
            _ = try store.like("carol", PostID(handle: "alice", slug: "one"), visibility: .public)
            return .changed("set up")
        }
        return site
    }

    @Test func everyFileOfARichSiteReadsOnlyWhatItsPlanNames() throws {
        let site = try Self.richSite()
        let options = BuildOptions(site: site.root)
        let model = try SiteModel.make(from: try SiteInputs.load(options), options: options)
        let plan = try SitePlan.files(for: model)
        #expect(plan.count > 30)
        for file in plan {
            if case .file = file.source { continue }
            let log = ReadLog()
            _ = try SiteRenderer.bytes(of: file, model: model)
            // Rendered again with a log of our own, to see that reads are recorded at all.
            if case .page(_, let view) = file.source { _ = view(model.views.recording(into: log)) }
            if case .bytes(let make) = file.source { _ = try make(model.views.recording(into: log)) }
            #expect(!log.recorded.isEmpty, "\(file.path) recorded no read")
            #expect(log.undeclared(by: file) == [], "\(file.path)")
        }
    }

    @Test func aPageReadingAnInputItsPlanDoesNotNameFailsTheBuild() throws {
        let site = try Self.richSite()
        let options = BuildOptions(site: site.root)
        let model = try SiteModel.make(from: try SiteInputs.load(options), options: options)
        // Names only the site's settings, but shows Alice's followers.
        let wrong = PlannedFile(path: "wrong/index.html", inputs: SitePlan.everyPage, source: .page(template: "404") { views in
            views.view(title: "\(views.followers(of: "alice").count)", heading: "", description: nil, path: "wrong/", type: "website", image: nil, fields: [:])
        })
        #expect(DebugChecks.enabled, "the tests run a debug build")
        #expect(throws: Diagnostic.self) { try SiteRenderer.bytes(of: wrong, model: model) }
        do {
            _ = try SiteRenderer.bytes(of: wrong, model: model)
        } catch {
            #expect(error.message.contains("followers(\"alice\")"))
        }
    }

    @Test func aNewDateMovesThePostInTheSitemapOfAnIncrementalBuild() throws {
        let site = try Self.richSite()
        try site.build()
        try site.write("content/posts/alice/one.md", "---\nphoto: one.jpg\ndate: 2026-06-01T10:00:00Z\n---\nFirst\n")
        try site.build()
        let incremental = site.page("sitemap.xml")
        let full = try site.fullBuild()
        #expect(incremental == full["sitemap.xml"])
        #expect(incremental.map { $0.range(of: "alice/posts/one/")!.lowerBound < $0.range(of: "bob/posts/three/")!.lowerBound } == true)
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == full.filter { $0.key != ".tomo-output" })
    }

    /// Another base URL (or tomo, or publishing option) into the same output renders every file
    /// again, from the kept hashes of what the output holds: the result is a fresh build's, and
    /// files whose bytes stay the same are not rewritten.
    @Test func anotherBaseURLIntoTheSameOutputRendersEverythingAndRewritesOnlyWhatDiffers() throws {
        let site = try Self.richSite()
        try site.build()
        let photo = try #require(site.outputFiles().keys.first { $0.hasPrefix("media/") && $0.hasSuffix(".webp") })
        let photoDate = try site.modificationDate(photo)
        let staging = "https://staging.example.org/"
        let report = try SiteBuilder.build(BuildOptions(site: site.root, baseURL: staging))
        #expect(!report.nothingChanged)
        let elsewhere = site.root.appendingPathComponent("fresh")
        try SiteBuilder.build(BuildOptions(site: site.root, output: elsewhere, baseURL: staging, full: true))
        let fresh = SiteFolder.files(in: elsewhere).filter { $0.key != ".tomo-output" }
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == fresh)
        #expect(site.page("sitemap.xml")?.contains(staging) == true)
        #expect(report.written < report.files, "files that read no address keep their bytes")
        #expect(try site.modificationDate(photo) == photoDate)
        // Back to site.yaml's address: the first output again.
        try site.build()
        #expect(site.page("sitemap.xml")?.contains("https://example.com/") == true)
        #expect(site.outputFiles().filter { $0.key != ".tomo-output" } == (try site.fullBuild()).filter { $0.key != ".tomo-output" })
    }

    /// The files a session holds after its updates.
    final class Served {
        var files: [String: [UInt8]] = [:]
        func apply(_ update: SiteSession<[UInt8]>.Update) {
            if update.isWhole { files = [:] }
            files.merge(update.files) { _, new in new }
            for path in update.removed { files[path] = nil }
        }

        var texts: [String: String] { files.mapValues { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func aPostsFolderMovedToAnotherUserIsServedAsAFreshBuildWouldBe() throws {
        let site = try Self.richSite()
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = Served()
        served.apply(try session.buildAll())
        let posts = site.root.appendingPathComponent("content/posts")
        try FileManager.default.moveItem(at: posts.appendingPathComponent("alice"), to: posts.appendingPathComponent("carol"))
        served.apply(try session.rebuild(changedPaths: ["content/posts/alice", "content/posts/carol"]))
        #expect(served.files["alice/posts/one/index.html"] == nil)
        #expect(served.files["carol/posts/one/index.html"] != nil)
        let full = try site.fullBuild()
        #expect(served.texts == full.filter { $0.key != ".tomo-output" })
    }

    /// With `indexed`, the session indexes the plan's readers after each build (as the preview
    /// does) and finds what an edit remakes from the index; without, from the whole plan.
    @Test(arguments: [false, true])
    func aSessionThatReadsOnlyWhatChangedKeepsTheFingerprintsOfAFullBuild(indexed: Bool) throws {
        let site = try Self.richSite()
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = Served()
        served.apply(try session.buildAll())
        if indexed { session.indexReaders() }
        // Each edit reads a few files again; in a debug build the session also fingerprints
        // the whole site and fails when its updated fingerprints differ (see `SiteSession`).
        let edits: [(String, (SiteFolder) throws -> Void)] = [
            ("content/users/bob.yaml", { try $0.write("content/users/bob.yaml", "name: Robert\nbio: New bio\n") }),
            ("content/posts/alice/one.md", { try $0.write("content/posts/alice/one.md", "---\nphoto: one.jpg\ndate: 2026-07-01T10:00:00Z\n---\nMoved up\n") }),
            ("content/posts/bob/four.md", { try $0.write("content/posts/bob/four.md", "---\nphoto: three.jpg\ndate: 2026-05-04T10:00:00Z\n---\nFour\n") }),
            ("content/posts/alice/two.md", { try FileManager.default.removeItem(at: $0.root.appendingPathComponent("content/posts/alice/two.md")) }),
            ("content/pages/about.md", { try $0.write("content/pages/about.md", "---\ntitle: About us\n---\nHi\n") }),
            ("content/pages/more.md", { try $0.write("content/pages/more.md", "---\ntitle: More\n---\nMore\n") }),
            ("templates/404.mustache", { try $0.write("templates/404.mustache", "<!doctype html><title>gone</title>\n") }),
            ("content/posts/bob/three.md", { try $0.write("content/posts/bob/three.md", "---\nphoto: three.jpg\ndate: 2026-05-03T10:00:00Z\nvisibility: private\n---\nThird\n") }),
        ]
        for (path, edit) in edits {
            Thread.sleep(forTimeInterval: 0.01)
            try edit(site)
            served.apply(try session.rebuild(changedPaths: [path]))
            if indexed { session.indexReaders() }
            #expect(served.texts == (try site.fullBuild()).filter { $0.key != ".tomo-output" }, "after \(path)")
        }
    }

    /// The readers index agrees with the plan it indexes: for every input, exactly the files
    /// naming it, each once and in plan order, on the plan of a real site and on seeded random
    /// plans whose files share lists and name a key several times.
    @Test func theReaderIndexListsEachFileReadingAnInputOnce() throws {
        func expectIndexAgrees(with plan: [PlannedFile], _ label: String) throws {
            let index = try #require(ReaderIndex(of: plan))
            var expected: [InputKey: [Int32]] = [:]
            for (position, file) in plan.enumerated() {
                for key in Set(file.inputs) { expected[key, default: []].append(Int32(position)) }
            }
            for (key, positions) in expected {
                #expect(Array(index.readers(of: key)) == positions, "\(label): \(key)")
            }
            #expect(index.readers(of: .post("nobody/nothing")).isEmpty, "\(label)")
        }
        let site = try Self.richSite()
        let options = BuildOptions(site: site.root)
        try expectIndexAgrees(with: try SitePlan.files(for: try SiteModel.make(from: try SiteInputs.load(options), options: options)), "rich site")

        for seed in UInt64(1)...20 {
            var random = SplitMix64(seed: seed)
            let keys: [InputKey] = [.site, .theme, .anyPost, .anyCard] + (0..<30).map { .post("u/\($0)") }
            let shared = (0..<3).map { _ in (0..<Int.random(in: 0...6, using: &random)).map { _ in random.pick(keys) } }
            let plan = (0..<Int.random(in: 0...60, using: &random)).map { number in
                let own = (0..<Int.random(in: 0...8, using: &random)).map { _ in random.pick(keys) }
                let lists = [own] + (0..<Int.random(in: 0...2, using: &random)).map { _ in random.pick(shared) }
                return PlannedFile(path: "f\(number)", inputLists: lists, source: .bytes { _ in [] })
            }
            try expectIndexAgrees(with: plan, "seed \(seed)")
        }
    }

    @Test func anImageTwoProfilesShareMovesWhenOneStopsShowingIt() throws {
        let site = try Self.richSite()
        for name in ["shared.jpg", "other.jpg"] { try site.write("content/users/\(name)", bytes: PostPagesTests.photo) }
        try site.write("content/users/alice.yaml", "name: Alice\nicon: shared.jpg\n")
        try site.write("content/users/bob.yaml", "name: Bob\nicon: shared.jpg\n")
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = Served()
        served.apply(try session.buildAll())
        // The thumbnails were published under the first user's folder; now only Bob shows them.
        try site.write("content/users/alice.yaml", "name: Alice\nicon: other.jpg\n")
        served.apply(try session.rebuild(changedPaths: ["content/users/alice.yaml"]))
        #expect(served.files.keys.contains { $0.hasPrefix("media/bob/shared-") })
        #expect(served.texts == (try site.fullBuild()).filter { $0.key != ".tomo-output" })
    }

    /// An item that becomes `hidden: true` (or shown again) takes its icon's thumbnails off the
    /// site (or puts them back) in the session as in a fresh build: the session's test of "the
    /// profile shows the same images" compares what the page shows before and after, not the
    /// file's items with the hidden ones (found by the change oracle, seed 20261406).
    @Test func hidingAnItemTakesItsIconsThumbnailsOffAsAFreshBuildDoes() throws {
        let site = try Self.richSite()
        try site.write("content/users/item.jpg", bytes: PostPagesTests.photo)
        try site.write("content/users/carol.yaml", "name: Carol\nitems:\n  - text: Hi\n    icon: item.jpg\n")
        let session = SiteSession(options: BuildOptions(site: site.root))
        let served = Served()
        served.apply(try session.buildAll())
        #expect(served.files.keys.contains { $0.hasPrefix("media/carol/item-") })
        for hidden in ["true", "false"] {
            try site.write("content/users/carol.yaml", "name: Carol\nitems:\n  - text: Hi\n    icon: item.jpg\n    hidden: \(hidden)\n")
            served.apply(try session.rebuild(changedPaths: ["content/users/carol.yaml"]))
            #expect(served.files.keys.contains { $0.hasPrefix("media/carol/item-") } == (hidden == "false"), "hidden: \(hidden)")
            #expect(served.texts == (try site.fullBuild()).filter { $0.key != ".tomo-output" }, "hidden: \(hidden)")
        }
    }

    /// The errors of a running session's rebuild after `edit` changed `path`, and of a build.
    func errorsAfter(_ path: String, _ edit: (SiteFolder) throws -> Void) throws -> (session: [String]?, build: [String]?) {
        let site = try Self.richSite()
        let session = SiteSession(options: BuildOptions(site: site.root))
        _ = try session.buildAll()
        try edit(site)
        var served: [String]?
        do {
            _ = try session.rebuild(changedPaths: [path])
        } catch {
            served = error.diagnostics.map(\.description)
        }
        return (served, site.buildErrors())
    }

    @Test func aProfileNamedLikeAPageFailsInTheSessionAsInTheBuild() throws {
        let errors = try errorsAfter("content/users/about.yaml") { try $0.write("content/users/about.yaml", "name: About\n") }
        #expect(errors.build?.contains { $0.contains("also a user's handle") } == true)
        #expect(errors.session == errors.build)
    }

    @Test func removingAProfileWithPostsFailsInTheSessionAsInTheBuild() throws {
        let errors = try errorsAfter("content/users/bob.yaml") { try FileManager.default.removeItem(at: $0.root.appendingPathComponent("content/users/bob.yaml")) }
        #expect(errors.build?.contains { $0.contains("no profile content/users/bob.yaml") } == true)
        #expect(errors.session == errors.build)
    }

    @Test func aTimedItemsMomentChangesOnlyTheProfilePage() throws {
        let site = try Self.richSite()
        let before = ISO8601DateFormatter().date(from: "2029-12-31T00:00:00Z")!
        let after = ISO8601DateFormatter().date(from: "2030-01-02T00:00:00Z")!
        try site.build(date: before)
        #expect(site.page("alice/index.html")?.contains("Soon") == false)
        let report = try site.build(date: after)
        #expect(site.page("alice/index.html")?.contains("Soon") == true)
        #expect(report.written == 1, "only alice's profile page shows items")
        // Not a full build: the profile page is the only file made again (`--timings` says it).
        #expect(report.steps.contains { $0.name == "render and write 1 file" }, "\(report.steps.map(\.name))")
    }
}
