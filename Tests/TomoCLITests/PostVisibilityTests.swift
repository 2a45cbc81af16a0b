import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// The store's commands see a post's visibility as the build does: `tomo like` (alone and in a
/// batch) takes a post exactly when `tomo build` publishes it, however its front matter is
/// written; a front matter the build cannot read is refused at the same place.
@Suite struct PostVisibilityTests {
    static let photo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    /// Front matters (after `---\nphoto: p.jpg\ndate: …\n`), and the visibility YAML reads in each.
    static let frontMatters: [(text: String, visibility: String)] = [
        ("visibility: private\n---\n", "private"),
        ("visibility: private # draft\r\n---\r\n", "private"),
        ("---\n", "public"),
        ("visibility: 'public'\n---\n", "public"),
        // Written otherwise than `visibility: word` on one line: YAML reads them all the same.
        ("visibility : private\n---\n", "private"),
        ("visibility   :   followers   # later\n---\n", "followers"),
        ("visibility: \"private\" # quoted, with a comment\n---\n", "private"),
        ("visibility: \"pub\\x6Cic\"\n---\n", "public"),
        ("visibility:\n  private\n---\n", "private"),
        ("\"visibility\": followers\n---\n", "followers"),
        ("? visibility\n: private\n---\n", "private"),
        // A quoted alt text over two lines whose second line looks like a key.
        ("alt: \"A photo\nvisibility: public\"\nvisibility: private\n---\n", "private"),
    ]

    static func site(_ frontMatter: String, byteOrderMark: Bool = false) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        for handle in ["alice", "bob"] { #expect(runTomo(["user", "add", handle], in: folder.url).status == 0) }
        try folder.copy(photo, to: "content/posts/alice/p.jpg")
        let text = "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\n" + frontMatter + "Hi.\n"
        let bytes = (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        try Data(bytes).write(to: folder.url.appendingPathComponent("content/posts/alice/p.md"))
        return folder
    }

    @Test func aLikeIsTakenExactlyWhenTheBuildPublishesThePost() throws {
        for (text, visibility) in Self.frontMatters {
            for byteOrderMark in [false, true] {
                let site = try Self.site(text, byteOrderMark: byteOrderMark)
                let build = runTomo(["build"], in: site.url)
                #expect(build.status == 0, "\(text): \(build.error)")
                let published = FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/alice/posts/p/index.html").path)
                #expect(published == (visibility == "public"), "\(text)")

                let like = runTomo(["like", "bob", "alice/p"], in: site.url)
                #expect((like.status == 0) == published, "\(text) (byte-order mark: \(byteOrderMark)): \(like.output)\(like.error)")
                if !published { #expect(like.error.contains("alice/p is not public"), "\(text): \(like.error)") }
                try site.write("likes.txt", "unlike bob alice/p\nlike bob alice/p\n")
                let batch = runTomo(["batch", "likes.txt"], in: site.url)
                #expect((batch.status == 0) == published, "\(text) in a batch: \(batch.error)")
            }
        }
    }

    /// A draft and a hidden post are published by no build, so nobody can like them (alone or
    /// in a batch), whatever their `visibility:`; once published they can be.
    @Test func aDraftOrAHiddenPostCannotBeLiked() throws {
        for (text, isDraft) in [("draft: true\n---\n", true), ("visibility: public\ndraft:   true # later\n---\n", true), ("draft: false\n---\n", false)] {
            let site = try Self.site(text)
            #expect(runTomo(["build"], in: site.url).status == 0)
            let published = FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/alice/posts/p/index.html").path)
            #expect(published == !isDraft, "\(text)")
            let like = runTomo(["like", "bob", "alice/p"], in: site.url)
            #expect((like.status == 0) == published, "\(text): \(like.error)")
            if isDraft { #expect(like.error.contains("alice/p is a draft (draft: true)"), "\(text): \(like.error)") }
            try site.write("likes.txt", "like bob alice/p\n")
            #expect((runTomo(["batch", "likes.txt"], in: site.url).status == 0) == published, "\(text) in a batch")
        }

        let site = try Self.site("---\n")
        #expect(runTomo(["post", "hide", "alice/p"], in: site.url).status == 0)
        let before = try site.read("content/store.json")
        let like = runTomo(["like", "bob", "alice/p"], in: site.url)
        #expect(like.status == 1 && like.error.contains("alice/p is hidden"), "\(like.error)")
        try site.write("likes.txt", "like bob alice/p\n")
        #expect(runTomo(["batch", "likes.txt"], in: site.url).status == 1)
        #expect(try site.read("content/store.json") == before)
        #expect(runTomo(["post", "unhide", "alice/p"], in: site.url).status == 0)
        #expect(runTomo(["like", "bob", "alice/p"], in: site.url).status == 0)
    }

    @Test func aVisibilityTheBuildCannotReadIsRefusedAtItsPlace() throws {
        let cases = [
            ("visibility: pubic\n---\n", "content/posts/alice/p.md:4:13: unknown visibility \"pubic\" (did you mean \"public\"?)"),
            ("visibility: [public]\n---\n", "content/posts/alice/p.md:4:13: expected a string for \"visibility\""),
            ("visibility: # private\n---\n", "content/posts/alice/p.md:4:12: \"visibility\" has no value"),
            ("visibility: public\nvisibility: private\n---\n", "content/posts/alice/p.md:5:1: duplicate key \"visibility\""),
        ]
        for (text, message) in cases {
            let site = try Self.site(text)
            for command in [["like", "bob", "alice/p"], ["check"]] {
                let result = runTomo(command, in: site.url)
                #expect(result.status == 1, "\(command) with \(text)")
                #expect(result.error.contains("error: " + message), "\(command) with \(text): \(result.error)")
            }
        }
    }

    /// `post list` shows the visibility the build reads, and `post hide` and `report` find the
    /// post, however its front matter spells `visibility`.
    @Test func everyCommandReadsTheVisibilityTheBuildReads() throws {
        for (text, visibility) in Self.frontMatters {
            let site = try Self.site(text)
            let list = runTomo(["post", "list", "alice", "--json"], in: site.url)
            #expect(list.status == 0, "\(text): \(list.error)")
            #expect(list.output.contains("\"visibility\": \"\(visibility)\""), "\(text): \(list.output)")
            let report = runTomo(["report", "bob", "alice/p", "--reason", "spam"], in: site.url)
            #expect(report.status == 0, "\(text): \(report.error)")
            let hide = runTomo(["post", "hide", "alice/p"], in: site.url)
            #expect(hide.status == 0, "\(text): \(hide.error)")
        }
    }

    /// A post behind a folder that cannot be read is not "no such post".
    @Test func aPostInAFolderThatCannotBeReadIsNotMissing() throws {
        let site = try Self.site("---\n")
        let folder = site.url.appendingPathComponent("content/posts/alice")
        let aside = site.url.appendingPathComponent("aside")
        try FileManager.default.moveItem(at: folder, to: aside)
        try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: "alice")
        let like = runTomo(["like", "bob", "alice/p"], in: site.url)
        #expect(like.status == 1)
        #expect(like.error.contains("error: content/posts/alice:1:1: this is a loop of symbolic links (Too many levels of symbolic links)"), "\(like.error)")
    }
}
