import Foundation
import Testing
@testable import TomoContent

/// A folder with the name of a content file (`alice.yaml/`, `about.md/`, `sunset.md/`) is an
/// error at that name: skipped as a sub-folder, the profile, page or post would be gone in
/// silence, and the next build would delete its pages.
@Suite struct FolderInPlaceOfFileTests {
    static let files = [
        "content/users/alice.yaml": "name: Alice\nicon: alice/icon.png\n",
        "content/users/alice/icon.png": "png",
        "content/users/bob.json": "{\"name\": \"Bob\", \"icon\": \"alice/icon.png\"}",
        "content/pages/about.md": "---\ntitle: About\n---\nHi.\n",
        "content/posts/alice/sunset.md": "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: x\n---\n",
        "content/posts/alice/sunset.jpg": "jpg",
    ]

    @Test(arguments: [
        ("content/users/alice.yaml", "profile"), ("content/users/bob.json", "profile"),
        ("content/pages/about.md", "page"), ("content/posts/alice/sunset.md", "post"),
    ])
    func aFolderNamedAsAContentFileIsAnError(path: String, kind: String) throws {
        var files = Self.files
        files[path] = nil
        // Both the alice profile and its posts: a post folder needs its owner's profile.
        let site = try SiteFixture(files)
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent(path), withIntermediateDirectories: true)
        let errors = site.errors()
        #expect(errors.contains("\(path):1:1: this is a folder, but a file of this name is read as a \(kind): rename the folder, or put the \(kind) file in its place"), "\(errors)")
    }

    @Test func otherFoldersAreNoContentFiles() throws {
        var files = Self.files
        files["content/users/alice/old.yaml/x.jpg"] = "jpg"
        files["content/posts/alice/drafts/raw.jpg"] = "jpg"
        files["content/pages/images/a.png"] = "png"
        #expect(try SiteFixture(files).errors() == [])
    }
}
