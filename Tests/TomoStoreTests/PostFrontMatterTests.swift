import Foundation
import Testing
import TomoCore
@testable import TomoStore

@Suite struct PostFrontMatterTests {
    @Test(arguments: [
        ("---\nphoto: p.jpg\nvisibility: private\n---\nHi.\n", PostVisibility.private),
        ("---\r\nvisibility: \"followers\"   # only friends\r\n---\r\n", .followers),
        ("---\nvisibility: 'public'\n---\n", .public),
        ("---\nphoto: p.jpg\n---\nvisibility: private\n", .public),
        ("No front matter.\nvisibility: private\n", .public),
        ("  ---  \nvisibility:private\n---\n", .private),
        ("", .public),
    ])
    func readsTheVisibilityOfTheFrontMatter(text: String, expected: PostVisibility) throws {
        #expect(try PostFrontMatter.visibility(inFrontMatterOf: Array(text.utf8), file: "p.md") == expected)
    }

    @Test func anUnknownVisibilityIsLocatedWithAHint() {
        #expect(throws: Diagnostic("unknown visibility \"privat\" (did you mean \"private\"?): use public, followers or private", at: SourceLocation(file: "p.md", line: 3, column: 13))) {
            try PostFrontMatter.visibility(inFrontMatterOf: Array("---\nphoto: p.jpg\nvisibility: privat\n---\n".utf8), file: "p.md")
        }
    }

    @Test func aMissingPostHasNoVisibility() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-fm-\(UUID().uuidString)")
        #expect(try PostFrontMatter.visibility(of: PostID(handle: "alice", slug: "nothing"), in: site) == nil)
    }
}
