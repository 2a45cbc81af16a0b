import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// A key written with no value (`visibility:`, `visibility: #private`, `~`, `null`, JSON's
/// `null`) is an error at that key, whatever the key: never its default. An empty
/// `visibility:` once published a post its author meant to keep private.
@Suite struct EmptyValueTests {
    /// Every way YAML says "no value" after a key.
    static let nullForms = ["", " # private", " ~", " null", " Null"]

    /// (file, text with `@` where the value goes, the line of that key). The other files keep
    /// the site valid.
    static let cases: [(file: String, text: String, line: Int)] = [
        ("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A photo\nvisibility:@\n---\n", 5),
        ("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt:@\n---\n", 4),
        ("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate:@\nalt: A photo\n---\n", 3),
        ("content/posts/alice/p.md", "---\nphoto:@\ndate: 2026-05-01\nalt: A photo\n---\n", 2),
        ("content/users/alice.yaml", "name:@\n", 1),
        ("content/users/alice.yaml", "name: Alice\nbio:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nicon:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nheader:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nlinks:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nlinks:\n  website:@\n", 3),
        ("content/users/alice.yaml", "name: Alice\nitems:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nitemColor:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nemail:@\n", 2),
        ("content/users/alice.yaml", "name: Alice\nemail: a@example.com\nshowEmail:@\n", 3),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text:@\n", 3),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Shop\n    url:@\n", 4),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Shop\n    color:@\n", 4),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Secret\n    hidden:@\n", 4),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Sale\n    from:@\n", 4),
        ("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Sale\n    until:@\n", 4),
        ("content/pages/about.md", "---\ntitle:@\n---\n", 2),
        ("content/pages/about.md", "---\ntitle: About\ndescription:@\n---\n", 3),
        ("content/site.yaml", "title:@\n", 1),
        ("content/site.yaml", "title: T\nbaseURL:@\n", 2),
        ("content/site.yaml", "title: T\nlanguage:@\n", 2),
        ("content/site.yaml", "title: T\ndescription:@\n", 2),
        ("content/site.yaml", "title: T\nhomeUsers:@\n", 2),
        ("content/site.yaml", "title: T\npageSize:@\n", 2),
        ("content/site.yaml", "title: T\ncontact:@\n", 2),
        ("content/site.yaml", "title: T\nimages:@\n", 2),
        ("content/site.yaml", "title: T\nimages:\n  widths:@\n", 3),
        ("content/site.yaml", "title: T\ndisableKinds:@\n", 2),
    ]

    static func site(_ file: String, _ text: String) throws -> SiteFixture {
        var files = [
            "content/site.yaml": SiteFixture.siteYAML,
            "content/users/alice.yaml": "name: Alice\n",
            "content/posts/alice/p.jpg": "not decoded by the loader",
        ]
        files[file] = text
        return try SiteFixture(files)
    }

    @Test(arguments: cases.indices)
    func aKeyWithoutAValueIsAnErrorAtThatKey(index: Int) throws {
        let (file, text, line) = Self.cases[index]
        // The key on that line: `  - text:@` is "text".
        let written = text.split(separator: "\n").map(String.init)[line - 1]
        let key = String(written.drop { $0 == " " || $0 == "-" }.prefix { $0 != ":" })
        for form in Self.nullForms {
            let written = text.replacingOccurrences(of: "@", with: form)
            let errors = try Self.site(file, written).load().errors
            #expect(errors.contains { $0.location?.file == file && $0.location?.line == line && $0.message.hasPrefix("\"\(key)\"") },
                    "\(written.debugDescription): \(errors)")
        }
    }

    /// JSON profiles say it with `null`.
    @Test(arguments: ["bio", "icon", "header", "links", "items", "itemColor", "email", "showEmail"])
    func aJSONNullIsAnErrorToo(key: String) throws {
        let site = try SiteFixture(["content/users/alice.json": "{\n  \"name\": \"Alice\",\n  \"\(key)\": null\n}\n"])
        let errors = site.load().errors
        #expect(errors.map(\.description).contains { $0.hasPrefix("content/users/alice.json:3:") && $0.contains("\"\(key)\" has no value") && !$0.contains("YAML") }, "\(errors)")
    }

    /// A name or a title of white space only, or of characters invisible on their own, shows
    /// as nothing (an empty heading, a page titled " · Site"): it is as good as missing. One in
    /// a word is kept as written.
    @Test(arguments: [
        ("content/users/alice.yaml", "name: @\n", 1),
        ("content/users/bob.json", "{\n  \"name\": \"@\"\n}\n", 2),
        ("content/pages/about.md", "---\ntitle: \"@\"\n---\nHi\n", 2),
        ("content/site.yaml", "title: \"@\"\n", 1),
    ])
    func aNameOrTitleOfWhiteSpaceOnlyIsAnError(file: String, text: String, line: Int) throws {
        // Written as escapes, which YAML's double quotes and JSON read alike.
        // Characters invisible on their own show as nothing too.
        for blank in ["\"\"", "\"   \"", "\"\\u3000\\u00a0\"", "\"\\t\"", "\"\\u200b\\u2060\"", "\"\\u3164\"", "\"\\u2800 \\u00ad\\u034f\""] {
            let written = text.replacingOccurrences(of: "\"@\"", with: blank).replacingOccurrences(of: "@", with: blank)
            let errors = try Self.site(file, written).load().errors
            #expect(errors.contains { $0.location?.file == file && $0.location?.line == line && $0.message.contains("is missing or empty") },
                    "\(written.debugDescription): \(errors)")
        }
        let kept = text.replacingOccurrences(of: "\"@\"", with: "\" A\\u3000\"").replacingOccurrences(of: "@", with: "\" A\\u3000\"")
        #expect(try Self.site(file, kept).load().errors.isEmpty, "\(kept.debugDescription)")
    }

    /// An empty visibility no longer publishes the post; a written one still does.
    @Test func aPostWithAnEmptyVisibilityIsNotLoaded() throws {
        let empty = try Self.site("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A\nvisibility: #private\n---\n").load()
        #expect(empty.content?.posts.isEmpty == true)
        let written = try Self.site("content/posts/alice/p.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A\nvisibility: private\n---\n").load()
        #expect(written.content?.posts.map(\.visibility) == [.private])
    }
}
