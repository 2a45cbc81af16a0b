import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// `tomo check` compares the store with the content: what a hand edit broke is an error at its
/// line and column in store.json; what only leaves something unshown is a warning.
@Suite struct StoreCheckTests {
    static let site = "title: T\nbaseURL: https://example.com/\n"
    static let profile = "name: X\nicon: x.png\n"
    /// A real 1×1 PNG: `tomo check` tests every image as a build would.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==") ?? Data()

    func folder(_ files: [String: String]) throws -> TemporaryFolder {
        let site = try TemporaryFolder(files)
        try Self.png.write(to: site.url.appendingPathComponent("content/users/x.png"))
        return site
    }

    func checked(_ files: [String: String]) throws -> (result: CommandResult, lines: [String]) {
        var all = ["content/site.yaml": Self.site]
        all.merge(files) { $1 }
        let site = try folder(all)
        let result = runTomo(["check"], in: site.url)
        return (result, result.error.split(separator: "\n").map(String.init))
    }

    @Test func aHandEditedStoreIsReportedRecordByRecord() throws {
        let store = """
        {
          "blocks": [
            {"created":"2026-01-01T00:00:00.000Z","from":"alice","to":"alice"}
          ],
          "follows": [
            ["alice","bob","2026-01-01T00:00:00.000Z"],
            ["alice","zed","2026-01-01T00:00:00.000Z"],
            ["bob","bob","2026-01-01T00:00:00.000Z"]
          ],
          "hidden": ["alice/gone", "nope"],
          "likes": {
            "alice/one": ["bob","ghost"],
            "alice/gone": ["bob","carol"]
          },
          "picks": [
            {"created":"2026-01-01T00:00:00.000Z","decision":"accept","from":"bob","to":"nobody"}
          ],
          "reports": [
            {"created":"2026-01-01T00:00:00.000Z","post":"alice/one","reason":"spam","user":"ghost"}
          ],
          "requests": [],
          "users": [
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"alice","sequence":1},
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2},
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"dave","sequence":3}
          ],
          "version": 2
        }
        """
        let (result, lines) = try checked([
            "content/store.json": store,
            "content/users/alice.yaml": Self.profile, "content/users/bob.yaml": Self.profile, "content/users/carol.json": "{\"name\": \"C\", \"icon\": \"x.png\"}",
            "content/posts/alice/one.md": "---\nphoto: ../../users/x.png\ndate: 2026-05-01\nalt: x\n---\n",
        ])
        #expect(result.status == 1)
        #expect(lines.filter { !$0.contains(": content/posts/") } == [
            "error: content/store.json:3:5: alice blocks themselves: remove this record",
            "error: content/store.json:7:5: this follow names \"zed\", who is not registered: register them with `tomo user add zed` or remove the record",
            "error: content/store.json:8:5: bob follows themselves: remove this record",
            "warning: content/store.json:10:14: this hidden of alice/gone: there is no post alice/gone (content/posts/alice/gone.md), so it shows nowhere: remove it with `tomo post unhide alice/gone`",
            "error: content/store.json:10:28: this hidden of nope: \"nope\" is not a post id: write it as HANDLE/SLUG, e.g. alice/sunset",
            "error: content/store.json:12:25: this like of alice/one names \"ghost\", who is not registered: register them with `tomo user add ghost` or remove the record",
            "warning: content/store.json:13:20: the 2 likes of alice/gone: there is no post alice/gone (content/posts/alice/gone.md), so it shows nowhere: remove them with `tomo unlike USER alice/gone` (by bob, carol)",
            "error: content/store.json:13:26: this like of alice/gone names \"carol\", who is not registered: register them with `tomo user add carol` or remove the record",
            "error: content/store.json:16:5: this pick names \"nobody\", who is not registered: register them with `tomo user add nobody` or remove the record",
            "error: content/store.json:19:5: this report of alice/one names \"ghost\", who is not registered: register them with `tomo user add ghost` or remove the record",
            "warning: content/store.json:25:5: dave is registered but has no profile, so no page is built for them (if `tomo user rename carol dave` was stopped half way, run it again to finish it): `tomo user add dave` writes a starter profile (or `tomo user rm dave --yes` removes them)",
            "warning: content/users/carol.json:1:1: carol has a profile but is not registered in content/store.json (if `tomo user rename carol dave` was stopped half way, run it again to finish it): follows, likes and `tomo post add` refuse them; register them with `tomo user add carol` (or delete their files with `tomo user rm carol --yes`)",
        ])
    }

    /// A rename names old handles, which no one need hold now: only what is not a handle, or a
    /// rename to the same handle, is wrong. Two users with one registration order would share
    /// their feed ids.
    @Test func renamesAreCheckedForHandlesAndRegistrationOrdersForDuplicates() throws {
        let store = """
        {
          "renames": [
            {"created":"2026-01-01T00:00:00.000Z","from":"old","to":"alice"},
            {"created":"2026-01-01T00:00:00.000Z","from":"Bad!","to":"gone"},
            {"created":"2026-01-01T00:00:00.000Z","from":"bob","to":"bob"}
          ],
          "users": [
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"alice","sequence":1},
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2},
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"carol","sequence":2}
          ],
          "version": 3
        }
        """
        let (result, lines) = try checked([
            "content/store.json": store, "content/users/alice.yaml": Self.profile, "content/users/bob.yaml": Self.profile,
            "content/users/carol.yaml": Self.profile,
        ])
        #expect(result.status == 1)
        #expect(lines == [
            "error: content/store.json:4:5: this rename: handle \"Bad!\" may use only a-z, 0-9 and _ (try \"bad_\"): correct the handle or remove the record",
            "error: content/store.json:5:5: this rename gives bob the handle they had: remove the record",
            "error: content/store.json:10:5: carol has the \"sequence\" 2 of bob too, and their feeds would give the same ids: give carol one higher than every other user's",
        ])
    }

    /// Each fix the messages name makes its message go.
    @Test func theFixesTheMessagesNameWork() throws {
        let site = try folder(["content/site.yaml": Self.site, "content/users/carol.yaml": Self.profile])
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/alice.yaml"))
        try site.writePost("alice/gone")
        #expect(runTomo(["user", "add", "bob"], in: site.url).status == 0)
        #expect(runTomo(["like", "bob", "alice/gone"], in: site.url).status == 0)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/posts/alice/gone.md"))
        let before = runTomo(["check"], in: site.url)
        #expect(before.status == 0, "warnings only: \(before.error)")
        #expect(before.error.contains("alice is registered but has no profile"))
        #expect(before.error.contains("carol has a profile but is not registered"))
        #expect(before.error.contains("there is no post alice/gone"))
        for fix in [["user", "add", "alice"], ["user", "add", "carol"], ["unlike", "bob", "alice/gone"]] {
            #expect(runTomo(fix, in: site.url).status == 0)
        }
        let after = runTomo(["check"], in: site.url)
        #expect(!after.error.contains("registered") && !after.error.contains("no post"), "\(after.error)")
    }

    /// `tomo build` shows the store's warnings as `tomo check` does: a full build, one after an
    /// edit and one that finds nothing changed; once fixed, none.
    @Test func aBuildWarnsOfWhatCheckWarnsOf() throws {
        let site = try folder(["content/site.yaml": Self.site, "content/users/carol.yaml": Self.profile])
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/alice.yaml"))
        #expect(runTomo(["user", "add", "bob"], in: site.url).status == 0)
        try site.writePost("bob/gone")
        for command in [["like", "bob", "bob/gone"], ["report", "bob", "bob/gone", "--reason", "spam"], ["post", "hide", "bob/gone"]] {
            #expect(runTomo(command, in: site.url).status == 0)
        }
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/posts/bob/gone.md"))
        func storeWarnings(_ result: CommandResult) -> [String] {
            result.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("warning: content/store.json") || $0.contains("is not registered in content/store.json") }
        }
        let check = runTomo(["check"], in: site.url)
        #expect(check.status == 0, "\(check.error)")
        let expected = storeWarnings(check)
        #expect(expected.count == 5, "\(check.error)")
        for arguments in [["build", "--full"], ["build"]] {
            let build = runTomo(arguments, in: site.url)
            #expect(build.status == 0 && Set(storeWarnings(build)) == Set(expected), "\(arguments): \(build.error)")
        }
        try site.write("content/users/carol.yaml", Self.profile + "items:\n  - text: New\n")
        let edited = runTomo(["build"], in: site.url)
        #expect(Set(storeWarnings(edited)) == Set(expected) && !edited.output.contains("Nothing changed"), "\(edited.output)\(edited.error)")

        for fix in [["user", "add", "alice"], ["user", "add", "carol"], ["unlike", "bob", "bob/gone"], ["post", "unhide", "bob/gone"]] {
            #expect(runTomo(fix, in: site.url).status == 0)
        }
        try Self.png.write(to: site.url.appendingPathComponent("content/posts/bob/gone.png"))
        try site.write("content/posts/bob/gone.md", "---\nphoto: gone.png\ndate: 2026-05-01\nalt: x\n---\n")
        let fixed = runTomo(["build"], in: site.url)
        #expect(fixed.status == 0 && storeWarnings(fixed).isEmpty, "\(fixed.output)\(fixed.error)")
    }

    /// A site that never used the store has no registrations to compare its profiles with.
    @Test func withoutAStoreProfilesAreNotFlagged() throws {
        let (result, lines) = try checked(["content/users/alice.yaml": Self.profile])
        #expect(result.status == 0)
        #expect(lines.isEmpty)
    }

    /// The demo site in the repository checks and builds clean.
    @Test func theDemoSiteChecksClean() throws {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = runTomo(["check"], in: demo)
        #expect(result.status == 0)
        #expect(result.output.hasSuffix(": 0 errors, 0 warnings\n"), "\(result.error)")
    }
}
