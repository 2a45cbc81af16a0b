import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// The demo's small real JPEG, to post from tests.
private let demoPhoto = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("content/users/alice/icon.jpg")

/// A site with alice and bob registered (starter profiles written) and a photo to post.
private struct PostSite {
    let folder: TemporaryFolder
    var url: URL { folder.url }
    /// `Sunset Photo.JPG` outside the site: a name to make a slug from, an extension to lower.
    var photo: String { url.appendingPathComponent("camera/Sunset Photo.JPG").path }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("site/content/site.yaml", "title: Test\n")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("camera"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: demoPhoto, to: folder.url.appendingPathComponent("camera/Sunset Photo.JPG"))
        for handle in ["alice", "bob"] { #expect(tomo("user", "add", handle).status == 0) }
    }

    var site: URL { url.appendingPathComponent("site") }

    func tomo(_ arguments: String...) -> CommandResult { runTomo(arguments, in: site) }

    func file(_ path: String) -> String? { try? String(contentsOf: site.appendingPathComponent(path), encoding: .utf8) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: site.appendingPathComponent(path).path) }

    /// The files in alice's post folder.
    var aliceFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("content/posts/alice").path)) ?? []).sorted()
    }

    func json(_ arguments: String...) throws -> JSONValue {
        let result = runTomo(arguments, in: site)
        #expect(result.status == 0, "\(arguments): \(result.error)")
        return try JSONParser.parse(result.output, file: "stdout")
    }
}

@Suite struct PostCommandTests {
    @Test(arguments: ["post add", "post list", "post rm"])
    func everyCommandExplainsItselfWithAnExample(command: String) {
        let result = runTomo(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Usage: tomo \(command)"))
        #expect(result.output.contains("Example"))
    }

    // MARK: - post add

    /// A caption or alt text that shows the address alice's profile keeps private is refused
    /// as the site's load refuses it, and nothing is left behind.
    @Test func addRefusesACaptionThatShowsTheOwnersPrivateAddress() throws {
        let site = try PostSite()
        try site.folder.write("site/content/users/alice.yaml", "name: Alice\nemail: alice.private@mail.example\n")
        for option in ["--caption", "--alt"] {
            let result = site.tomo("post", "add", "alice", site.photo, option, "Write to Alice.Private@mail.example", "--slug", "hello")
            #expect(result.status == 1, "\(option): \(result.output)")
            #expect(result.error.contains("content/posts/alice/hello.md:"), "\(result.error)")
            #expect(result.error.contains("this publishes alice.private@mail.example, which @alice's `email:` keeps private"), "\(result.error)")
            #expect(site.aliceFiles.isEmpty, "\(site.aliceFiles)")
        }
        #expect(site.tomo("post", "add", "alice", site.photo, "--caption", "Write to me", "--slug", "hello").status == 0)
        #expect(site.tomo("check").status == 0)
    }

    @Test func addCopiesThePhotoWritesThePostAndPrintsOnlyTheId() throws {
        let site = try PostSite()
        let result = site.tomo("post", "add", "alice", site.photo, "--caption", "The sky over **Odaiba**.", "--alt", "A \"red\" sky: # not a comment",
                               "--date", "2026-05-01T18:30:00+09:00", "--visibility", "followers")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "alice/sunset-photo\n")
        #expect(result.error.isEmpty)
        #expect(site.aliceFiles == ["sunset-photo.jpg", "sunset-photo.md"])
        #expect(try Data(contentsOf: site.site.appendingPathComponent("content/posts/alice/sunset-photo.jpg")) == Data(contentsOf: demoPhoto))
        #expect(site.file("content/posts/alice/sunset-photo.md") == """
        ---
        photo: sunset-photo.jpg
        date: 2026-05-01T18:30:00+09:00
        alt: "A \\"red\\" sky: # not a comment"
        visibility: followers
        ---
        The sky over **Odaiba**.

        """)
        #expect(site.tomo("check").error.contains("sunset-photo") == false)
    }

    @Test func addPicksAFreeSlugAndStampsNowWithAnOffset() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--alt", "a").output == "alice/sunset-photo\n")
        #expect(site.tomo("post", "add", "alice", site.photo, "--alt", "b").output == "alice/sunset-photo-2\n")
        #expect(site.tomo("post", "add", "alice", site.photo, "--alt", "c").output == "alice/sunset-photo-3\n")
        let listed = try site.json("post", "list", "alice", "--json")
        let date = try #require(listed.arrayValue?.first?["date"]?.stringValue)
        #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d/) != nil)
    }

    @Test func addCopiesTheBytesBehindASymbolicLink() throws {
        let site = try PostSite()
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("link.jpg").path, withDestinationPath: site.photo)
        let result = site.tomo("post", "add", "alice", "../link.jpg", "--alt", "x")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "alice/link\n")
        let copy = site.site.appendingPathComponent("content/posts/alice/link.jpg").path
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: copy)) == nil)
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: site.photo))
    }

    @Test func addWithoutAltWarnsOnStandardError() throws {
        let site = try PostSite()
        let result = site.tomo("post", "add", "alice", site.photo, "--slug", "dusk")
        #expect(result.status == 0)
        #expect(result.output == "alice/dusk\n")
        #expect(result.error.contains("warning: content/posts/alice/dusk.md:2:1: no alt text"))
    }

    @Test func addRefusesAnUnknownUserAndWritesNothing() throws {
        let site = try PostSite()
        let result = site.tomo("post", "add", "alise", site.photo)
        #expect(result.status == 1)
        #expect(result.error == "error: unknown user \"alise\" (did you mean \"alice\"?): register them with `tomo user add alise`\n")
        #expect(!site.exists("content/posts"))
    }

    @Test func addRefusesAUserWithoutAProfile() throws {
        let site = try PostSite()
        try FileManager.default.removeItem(at: site.site.appendingPathComponent("content/users/bob.yaml"))
        let result = site.tomo("post", "add", "bob", site.photo)
        #expect(result.status == 1)
        #expect(result.error.contains("bob has no profile content/users/bob.yaml"))
        #expect(!site.exists("content/posts"))
    }

    @Test func addRefusesAMissingPhotoOrOneThatIsNoImage() throws {
        let site = try PostSite()
        let missing = site.tomo("post", "add", "alice", "nope.jpg")
        #expect(missing.status == 1)
        #expect(missing.error == "error: no photo at nope.jpg: give the path of an image file\n")
        try site.folder.write("site/photos/a.jpg", "x")
        let folder = site.tomo("post", "add", "alice", "photos")
        #expect(folder.status == 1 && folder.error == "error: photos is a folder: give the path of an image file in it\n", "\(folder.error)")
        try site.folder.write("site/notes.txt", "x")
        let text = site.tomo("post", "add", "alice", "notes.txt")
        #expect(text.status == 1)
        #expect(text.error.contains("notes.txt is not a photo tomo can publish: use a .jpg, .jpeg, .png"))
        #expect(!site.exists("content/posts"))
    }

    /// The photo is decoded whole, as the next build will, before anything is written: a text
    /// file named .jpg, a cut-off JPEG, a PNG that is only its header and a strip too tall for
    /// any WebP thumbnail are refused with the build's own reasons; a good one is posted and
    /// the site builds.
    @Test func addDecodesThePhotoBeforeWritingAnything() throws {
        let site = try PostSite()
        let good = try Data(contentsOf: demoPhoto)
        try site.folder.write("site/notes.jpg", "not a photo at all\n")
        try Data(good.prefix(good.count / 2)).write(to: site.site.appendingPathComponent("cut-off.jpg"))
        try Data("GIF89a".utf8 + [0x01, 0x00]).write(to: site.site.appendingPathComponent("tiny.png"))
        try site.folder.write("site/tall.png", bytes: PNGBytes.grey(width: 1, height: 16384))
        try site.folder.write("site/header.png", bytes: PNGBytes.headerOnly(width: 20000, height: 12000))
        for (photo, reason) in [("notes.jpg", "not an image libvips can read"), ("cut-off.jpg", "the image is damaged or incomplete"),
                                ("tiny.png", "not an image libvips can read"), ("header.png", "the image is damaged or incomplete"),
                                ("tall.png", "1×16384 pixels is more than 16383 times as tall as it is wide, so even a thumbnail 1 pixel wide would be taller than the 16383 pixels WebP allows")] {
            let result = site.tomo("post", "add", "alice", photo, "--alt", "x")
            #expect(result.status == 1, "\(photo)")
            #expect(result.error.hasPrefix("error: \(photo): \(reason)"), "\(result.error)")
            #expect(!site.exists("content/posts"), "\(photo): nothing written")
        }
        #expect(site.tomo("post", "add", "alice", site.photo, "--alt", "x").status == 0)
        #expect(site.aliceFiles == ["sunset-photo.jpg", "sunset-photo.md"])
        #expect(site.tomo("build").status == 0)
    }

    @Test func addRefusesATakenSlug() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "a").status == 0)
        let result = site.tomo("post", "add", "alice", site.photo, "--slug", "dusk")
        #expect(result.status == 1)
        #expect(result.error == "error: content/posts/alice/dusk.md already exists: alice/dusk is taken; choose another --slug\n")
        #expect(site.aliceFiles == ["dusk.jpg", "dusk.md"])
    }

    @Test func addRefusesBadOptionValuesAsUsageErrors() throws {
        let site = try PostSite()
        let visibility = site.tomo("post", "add", "alice", site.photo, "--visibility", "folowers")
        #expect(visibility.status == 2)
        #expect(visibility.error.hasPrefix("error: --visibility takes public, followers or private, not \"folowers\" (did you mean \"followers\"?)\nusage: tomo post add"))
        let date = site.tomo("post", "add", "alice", site.photo, "--date", "tomorrow")
        #expect(date.status == 2)
        #expect(date.error.contains("--date \"tomorrow\" is not a date: write 2026-05-01T18:30:00+09:00"))
        let slug = site.tomo("post", "add", "alice", site.photo, "--slug", "../../x")
        #expect(slug.status == 2)
        #expect(slug.error.hasPrefix("error: --slug: slug \"../../x\" may use only a-z, 0-9 and - (try \"x\")"))
        #expect(!site.exists("content/posts"))
    }

    // MARK: - post list

    @Test func listIsNewestFirstByInstantAcrossTimeZones() throws {
        let site = try PostSite()
        let dates = [
            ("tokyo", "2026-05-01T18:30:00+09:00"),   // 09:30 UTC
            ("london", "2026-05-01T10:00:00Z"),       // 10:00 UTC
            ("newyork", "2026-05-01T05:00:00-04:00"), // 09:00 UTC
            ("osaka", "2026-05-01T19:00:00+09:00"),   // 10:00 UTC, a tie with london
            ("day", "2026-05-02"),                    // 00:00 UTC the next day
        ]
        for (slug, date) in dates {
            #expect(site.tomo("post", "add", "alice", site.photo, "--slug", slug, "--date", date, "--alt", "x").status == 0)
        }
        #expect(site.tomo("post", "add", "bob", site.photo, "--slug", "secret", "--date", "2026-01-01", "--visibility", "private", "--alt", "x").status == 0)
        #expect(site.tomo("like", "bob", "alice/tokyo").status == 0)
        #expect(site.tomo("post", "hide", "alice/newyork").status == 0)

        let all = try site.json("post", "list", "--json")
        let posts = try #require(all.arrayValue)
        #expect(posts.map { $0["id"]?.stringValue } == ["alice/day", "alice/london", "alice/osaka", "alice/tokyo", "alice/newyork", "bob/secret"])
        #expect(posts.allSatisfy { $0.objectValue.map { Set($0.keys) } == ["id", "date", "visibility", "likes", "hidden"] })
        #expect(posts[3] == .object(["id": "alice/tokyo", "date": "2026-05-01T18:30:00+09:00", "visibility": "public", "likes": 1, "hidden": false]))
        #expect(posts[4]["hidden"] == .bool(true))
        #expect(posts[5]["visibility"] == "private")

        let bobs = try site.json("post", "list", "bob", "--json")
        #expect(bobs.arrayValue?.map { $0["id"]?.stringValue } == ["bob/secret"])
        let text = site.tomo("post", "list", "alice")
        #expect(text.output.split(separator: "\n").first == "2026-05-02                 alice/day      public     0 likes")
    }

    @Test func listOfAnUnknownUserOrAnEmptySite() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "list").output.contains("no posts yet"))
        #expect(try site.json("post", "list", "--json") == .array([]))
        let unknown = site.tomo("post", "list", "carol")
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("unknown user \"carol\""))
    }

    @Test func listReportsBrokenPostFilesAndListsTheRest() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "good", "--alt", "x").status == 0)
        try site.folder.write("site/content/posts/alice/bad.md", "---\nphoto: good.jpg\ndate: soon\n---\n")
        let result = site.tomo("post", "list", "--json")
        #expect(result.status == 1)
        #expect(try JSONParser.parse(result.output, file: "stdout").arrayValue?.count == 1)
        #expect(result.error.contains("content/posts/alice/bad.md:3:7: \"soon\" is not a date"))
    }

    // MARK: - post rm

    @Test func rmWithoutYesSaysWhatItWouldDeleteAndDeletesNothing() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "x").status == 0)
        #expect(site.tomo("like", "bob", "alice/dusk").status == 0)
        let result = site.tomo("post", "rm", "alice/dusk")
        #expect(result.status == 2)
        #expect(result.error == """
        error: this deletes content/posts/alice/dusk.md, content/posts/alice/dusk.jpg, 1 like: run `tomo post rm alice/dusk --yes` to confirm
        usage: tomo post rm POST [--yes]

        """)
        #expect(site.aliceFiles == ["dusk.jpg", "dusk.md"])
        #expect(try site.json("post", "list", "--json").arrayValue?.first?["likes"] == 1)
    }

    @Test func rmDeletesTheFilesAndEveryRelation() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "x").status == 0)
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dawn", "--alt", "x").status == 0)
        for command in [["like", "bob", "alice/dusk"], ["like", "alice", "alice/dusk"], ["like", "bob", "alice/dawn"],
                        ["report", "bob", "alice/dusk", "--reason", "spam"], ["post", "hide", "alice/dusk"]] {
            #expect(runTomo(command, in: site.site).status == 0)
        }
        let result = site.tomo("post", "rm", "alice/dusk", "--yes")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == """
        deleted content/posts/alice/dusk.jpg
        deleted content/posts/alice/dusk.md
        alice/dusk: removed 2 likes, 1 report and its hidden mark from the store

        """)
        #expect(site.aliceFiles == ["dawn.jpg", "dawn.md"])
        let store = try StoreFile(site: site.site).read()
        #expect(store.likers("alice/dusk").isEmpty && store.reports.isEmpty && store.hiddenPosts.isEmpty)
        #expect(store.likers("alice/dawn") == ["bob"])
        #expect(site.tomo("post", "rm", "alice/dusk", "--yes").status == 1)
    }

    @Test func rmKeepsAPhotoAnotherPostShows() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "x").status == 0)
        try site.folder.write("site/content/posts/alice/again.md", "---\nphoto: dusk.jpg\ndate: 2026-05-01\nalt: x\n---\n")
        let result = site.tomo("post", "rm", "alice/dusk", "--yes")
        #expect(result.status == 0)
        #expect(result.output == "deleted content/posts/alice/dusk.md\n")
        #expect(result.error == "warning: kept content/posts/alice/dusk.jpg: alice/again shows it too\n")
        #expect(site.aliceFiles == ["again.md", "dusk.jpg"])
    }

    /// The other post names the same file otherwise (a link to it, a hard link, a path with
    /// `..`), or cannot be read to tell: the photo stays in every case.
    @Test func rmKeepsAPhotoAnotherPostMayShowHoweverItNamesIt() throws {
        let ways: [(String, (URL) throws -> Void)] = [
            ("a link", { folder in try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("other.jpg").path, withDestinationPath: "dusk.jpg") }),
            ("a hard link", { folder in try FileManager.default.linkItem(at: folder.appendingPathComponent("dusk.jpg"), to: folder.appendingPathComponent("other.jpg")) }),
            ("a path through a folder", { folder in try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false) }),
        ]
        for (way, make) in ways {
            let site = try PostSite()
            #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "x").status == 0)
            let folder = site.site.appendingPathComponent("content/posts/alice")
            try make(folder)
            let photo = way == "a path through a folder" ? "sub/../dusk.jpg" : "other.jpg"
            try site.folder.write("site/content/posts/alice/again.md", "---\nphoto: \(photo)\ndate: 2026-05-01\nalt: x\n---\n")
            let result = site.tomo("post", "rm", "alice/dusk", "--yes")
            #expect(result.status == 0, "\(way): \(result.error)")
            #expect(result.error.contains("warning: kept content/posts/alice/dusk.jpg: alice/again shows it too"), "\(way): \(result.error)")
            #expect(site.exists("content/posts/alice/dusk.jpg"), "\(way)")
            #expect(site.tomo("check").status == 0, "\(way)")
        }
        let site = try PostSite()
        #expect(site.tomo("post", "add", "alice", site.photo, "--slug", "dusk", "--alt", "x").status == 0)
        try site.folder.write("site/content/posts/alice/again.md", "---\nphoto: dusk.jpg\ndate: yesterday\nalt: x\n---\n")
        let result = site.tomo("post", "rm", "alice/dusk", "--yes")
        #expect(result.status == 0)
        #expect(result.error.hasPrefix("warning: kept content/posts/alice/dusk.jpg: content/posts/alice/again.md has errors"), "\(result.error)")
        #expect(site.exists("content/posts/alice/dusk.jpg"))
    }

    @Test func rmRefusesABadOrMissingId() throws {
        let site = try PostSite()
        #expect(site.tomo("post", "rm", "alice/../../x", "--yes").status == 1)
        let missing = site.tomo("post", "rm", "alice/nothing", "--yes")
        #expect(missing.status == 1)
        #expect(missing.error == "error: no post alice/nothing: content/posts/alice/nothing.md does not exist\n")
    }

    // MARK: - the real binary

    @Test func theBinaryPrintsThePostIdForScripts() throws {
        let site = try PostSite()
        let added = try runBinary(["post", "add", "alice", site.photo, "--alt", "A sunset", "--date", "2026-05-01 18:30"], in: site.site)
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output == "alice/sunset-photo\n")
        let listed = try runBinary(["post", "list", "--json"], in: site.site)
        #expect(try JSONParser.parse(listed.output, file: "stdout") == .array([
            .object(["id": "alice/sunset-photo", "date": "2026-05-01 18:30", "visibility": "public", "likes": 0, "hidden": false]),
        ]))
        let refused = try runBinary(["post", "rm", "alice/sunset-photo"], in: site.site)
        #expect(refused.status == 2)
    }
}
