import Foundation
import Testing
import TomoTestSupport

/// `draft: true` and posts dated in the future, as the commands see them: `tomo build` and
/// `tomo serve` publish nothing of them (the output is the site's without them, byte for byte)
/// unless given `--drafts` or `--future`; `tomo check` checks them all the same.
@Suite(.serialized) struct DraftAndFutureCommandTests {
    static let markers = ["mkdraftslug", "mkdraftcaption", "mkdraftphoto", "mkdraftpage", "mkdrafttitle", "mkfutureslug", "mkfuturecaption", "mkfuturephoto"]

    /// The privacy oracle's public site, with a draft post, a draft page and a post dated in
    /// 2099 when `seeded`.
    static func makeSite(seeded: Bool) throws -> TemporaryFolder {
        let site = try PrivacyOracleTests.makeSite(withPrivateData: false)
        guard seeded else { return site }
        try site.write("content/posts/alice/mkdraftslug.md", "---\nphoto: mkdraftphoto.jpg\ndate: 2026-05-02T18:30:00+09:00\nalt: A draft\ndraft: true\n---\nmkdraftcaption\n")
        try PrivacyOracleTests.copyDemo("posts/hana/winter-study.jpg", to: "content/posts/alice/mkdraftphoto.jpg", in: site)
        try site.write("content/posts/bob/mkfutureslug.md", "---\nphoto: mkfuturephoto.jpg\ndate: 2099-01-01T00:00:00Z\nalt: Later\n---\nmkfuturecaption\n")
        try PrivacyOracleTests.copyDemo("posts/kenji/tonkotsu.jpg", to: "content/posts/bob/mkfuturephoto.jpg", in: site)
        try site.write("content/pages/mkdraftpage.md", "---\ntitle: mkdrafttitle\ndraft: true\n---\nSoon\n")
        return site
    }

    static func markers(in files: [String: [UInt8]]) -> Set<String> {
        Set(markers.filter { marker in
            files.contains { path, bytes in path.contains(marker) || bytes.firstRange(of: Array(marker.utf8)) != nil }
        })
    }

    @Test func aBuildIsTheSitesWithoutDraftsAndFuturePostsUnlessAsked() throws {
        let seeded = try Self.makeSite(seeded: true)
        let clean = try Self.makeSite(seeded: false)
        let build = try runBinary(["build"], in: seeded.url)
        #expect(build.status == 0, "\(build.error)")
        #expect(try runBinary(["build"], in: clean.url).status == 0)
        let published = try PrivacyOracleTests.files(in: seeded.url.appendingPathComponent("public"))
        let withoutThem = try PrivacyOracleTests.files(in: clean.url.appendingPathComponent("public"))
        #expect(Self.markers(in: published) == [])
        #expect(Set(published.keys) == Set(withoutThem.keys))
        #expect(published.keys.filter { published[$0] != withoutThem[$0] }.sorted() == [])

        let asked = try runBinary(["build", "--drafts", "--future", "--out", "asked"], in: seeded.url)
        #expect(asked.status == 0, "\(asked.error)")
        #expect(Self.markers(in: try PrivacyOracleTests.files(in: seeded.url.appendingPathComponent("asked"))) == Set(Self.markers))
    }

    @Test func checkReportsTheErrorsOfDraftsAndFuturePosts() throws {
        let site = try Self.makeSite(seeded: true)
        let fine = try runBinary(["check"], in: site.url)
        #expect(fine.status == 0, "\(fine.error)")
        try site.write("content/posts/alice/mkdraftslug.md", "---\nphoto: gone.jpg\ndate: 2026-05-02T18:30:00+09:00\nalt: A draft\ndraft: true\n---\nx\n")
        try site.write("content/pages/mkdraftpage.md", "---\ntitle: mkdrafttitle\ndraft: soon\n---\nSoon\n")
        try site.write("content/posts/bob/mkfutureslug.md", "---\nphoto: mkfuturephoto.jpg\ndate: 2099-01-01T00:00:00Z\nvisibility: pubic\n---\nmkfuturecaption\n")
        let check = try runBinary(["check"], in: site.url)
        #expect(check.status == 1)
        #expect(check.error.contains("content/posts/alice/mkdraftslug.md:2:8: photo file not found"), "\(check.error)")
        #expect(check.error.contains("content/pages/mkdraftpage.md:3:8: expected true or false for \"draft\""), "\(check.error)")
        #expect(check.error.contains("content/posts/bob/mkfutureslug.md:4:13: unknown visibility"), "\(check.error)")
        // And a build stops on them, as on any post's.
        #expect(try runBinary(["build"], in: site.url).status == 1)
    }

    @Test func tomoServeShowsDraftsAndFuturePostsOnlyWhenAsked() throws {
        let site = try Self.makeSite(seeded: true)
        let paths = ["/alice/posts/mkdraftslug/", "/mkdraftpage/", "/bob/posts/mkfutureslug/"]
        do {
            let server = try LoggedPreview(site: site.url)
            defer { server.stop() }
            for path in paths {
                let reply = try fetch(server.port, path)
                #expect(reply.status == 404, "\(path)")
            }
            #expect(Self.markers(in: ["home": try fetch(server.port, "/").body, "feed": try fetch(server.port, "/feed.xml").body]) == [])
        }
        let server = try LoggedPreview(site: site.url, arguments: ["--drafts", "--future"])
        defer { server.stop() }
        for path in paths {
            let reply = try fetch(server.port, path)
            #expect(reply.status == 200, "\(path)")
        }
    }

    /// With no file edited, the running preview publishes a post when its date comes.
    @Test func tomoServePublishesAFuturePostWhenItsDateComes() throws {
        let site = try ServeTimedItemsTests.site("name: Alice\n")
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(ServeTimedItemsTests.profilePage(server) { $0.contains("Alice") } != nil)
        // Written after the start, so the date is ahead of the rebuild this edit makes.
        let due = Date().addingTimeInterval(2)
        try site.write("content/posts/alice/p.jpg", bytes: Array(try Data(contentsOf: sampleJPEG)))
        try site.write("content/posts/alice/mkfutureslug.md", "---\nphoto: p.jpg\ndate: \(ServeTimedItemsTests.written(due))\nalt: Later\n---\nmkfuturecaption\n")
        try site.write("content/users/alice.yaml", "name: Alice\nbio: Edited\n")
        let before = ServeTimedItemsTests.profilePage(server) { $0.contains("Edited") }
        #expect(before != nil && before?.contains("mkfutureslug") == false, "\(server.errors)")
        let after = ServeTimedItemsTests.profilePage(server) { $0.contains("mkfutureslug") }
        #expect(after != nil, "\(server.errors)")
        #expect(Date() >= due, "nothing was published before its date")
        #expect((try fetch(server.port, "/alice/posts/mkfutureslug/")).status == 200)
    }
}
