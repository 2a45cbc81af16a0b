import Foundation
import Testing
import TomoTestSupport

/// `tomo theme eject [NAME…]`: the built-in theme's files copied into the site's templates/,
/// which the build then uses file by file; a file the site already has is kept.
@Suite struct ThemeEjectTests {
    /// The built-in theme: the repository's templates/, which the build compiles into tomo.
    static let theme = fileTree(repositoryRoot.appendingPathComponent("templates"))
    /// The brand marks' table is data the build reads from the built-in theme alone: a copy in a
    /// site would change nothing, so it is not ejected.
    static let builtinOnly = ["icons/brands.tsv", "icons/brands-LICENSE.md"]
    static let themePaths = theme.keys.sorted().filter { !builtinOnly.contains($0) }

    /// The demo site without its templates/ folder: built with the built-in theme alone.
    static func siteWithoutTemplates() throws -> TemporaryFolder {
        let site = try demoSiteCopy()
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("templates"))
        return site
    }

    static func build(_ site: TemporaryFolder, into name: String) throws -> [String: Data] {
        let output = site.url.appendingPathComponent(".build-" + name)
        let result = runTomo(["build", "--full", "--out", output.path], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        return fileTree(output)
    }

    /// A differential oracle: the ejected theme is the built-in theme, so a build with all of it
    /// in templates/ writes exactly the files, byte for byte, of a build without templates/.
    @Test func aBuildWithTheWholeThemeEjectedIsByteIdenticalToOneWithout() throws {
        let site = try Self.siteWithoutTemplates()
        let builtin = try Self.build(site, into: "builtin")
        let result = runTomo(["theme", "eject"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Wrote \(Self.themePaths.count) files into templates/:\n"), "\(result.output)")
        let written = fileTree(site.url.appendingPathComponent("templates"))
        #expect(written.keys.sorted() == Self.themePaths)
        #expect(Self.builtinOnly.allSatisfy { Self.theme[$0] != nil && written[$0] == nil })
        for path in Self.themePaths {
            #expect(written[path] == Self.theme[path], "\(path)")
            #expect(result.output.contains("\n  templates/\(path)\n"), "\(path)")
        }
        let ejected = try Self.build(site, into: "ejected")
        #expect(builtin.count > 100)
        #expect(differences(builtin, ejected).isEmpty, "\(differences(builtin, ejected))")
    }

    @Test func anEjectedTemplateEditedIsWhatTheBuildUses() throws {
        let site = try Self.siteWithoutTemplates()
        let before = try Self.build(site, into: "before")
        let result = runTomo(["theme", "eject", "profile"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Wrote 1 file into templates/:\n  templates/profile.mustache\n")
        let file = site.url.appendingPathComponent("templates/profile.mustache")
        let source = try String(contentsOf: file, encoding: .utf8)
        try site.write("templates/profile.mustache", "<p class=\"edited\">{{user.name}}</p>\n" + source)
        let after = try Self.build(site, into: "after")
        let alice = try #require(after["alice/index.html"].map { String(decoding: $0, as: UTF8.self) })
        #expect(alice.contains("<p class=\"edited\">Alice"), "\(alice.prefix(300))")
        // Only profile pages changed.
        let changed = differences(before, after)
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0.hasSuffix("/index.html") && $0.split(separator: "/").count == 2 }, "\(changed)")
        #expect(!changed.contains("index.html"))
    }

    /// Names: a template's name or file name, a file's path, a folder for all it holds.
    @Test func namesPickTemplatesFilesAndFolders() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        let result = runTomo(["theme", "eject", "layout", "user-card.mustache", "static/style.css", "labels/ja.json", "icons/", "layout"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        let icons = Self.themePaths.filter { $0.hasPrefix("icons/") }
        #expect(icons.count >= 13)
        let expected = (["layout.mustache", "user-card.mustache", "static/style.css", "labels/ja.json"] + icons).sorted()
        #expect(fileTree(site.url.appendingPathComponent("templates")).keys.sorted() == expected)
        #expect(result.output == "Wrote \(expected.count) files into templates/:\n" + expected.map { "  templates/\($0)\n" }.joined())
    }

    @Test func anExistingFileIsKeptAndNamedUnlessForced() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "templates/profile.mustache": "mine\n",
            "templates/static/style.css": "body { color: teal }\n",
        ])
        let result = runTomo(["theme", "eject", "profile", "layout", "static"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(try String(contentsOf: site.url.appendingPathComponent("templates/profile.mustache"), encoding: .utf8) == "mine\n")
        #expect(try String(contentsOf: site.url.appendingPathComponent("templates/static/style.css"), encoding: .utf8) == "body { color: teal }\n")
        #expect(result.output.contains("Kept 2 files templates/ already has (--force overwrites):\n  templates/profile.mustache\n  templates/static/style.css\n"), "\(result.output)")
        #expect(result.output.contains("  templates/layout.mustache\n"))

        let again = runTomo(["theme", "eject", "profile"], in: site.url)
        #expect(again.output == "Kept 1 file templates/ already has (--force overwrites):\n  templates/profile.mustache\n")

        let forced = runTomo(["theme", "eject", "profile", "--force"], in: site.url)
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.output == "Wrote 1 file into templates/:\n  templates/profile.mustache\n")
        #expect(FileManager.default.contents(atPath: site.url.appendingPathComponent("templates/profile.mustache").path) == Self.theme["profile.mustache"])
    }

    /// Something in the way of the theme's files is named where it is, with the fix: a file
    /// named `templates`, a folder where a template goes (with `--force` or without: a folder
    /// is no file kept, and the build would go on using the built-in template).
    @Test func whatIsInTheWayIsNamedWithTheFix() throws {
        let file = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "templates": "notes\n"])
        let blocked = runTomo(["theme", "eject"], in: file.url)
        #expect(blocked.status == 1)
        #expect(blocked.error.hasPrefix("error: templates:1:1: this is a file, where the theme's folder templates/ goes: move it away, then eject again"), "\(blocked.error)")
        let folder = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "templates/page.mustache/keep.txt": "mine\n"])
        let forced = runTomo(["theme", "eject", "--force"], in: folder.url)
        #expect(forced.status == 1)
        #expect(forced.error.contains("templates/page.mustache:1:1: this is a folder, where the theme's file goes: move it away, then eject again"), "\(forced.error)")
        let unforced = runTomo(["theme", "eject", "page"], in: folder.url)
        #expect(unforced.status == 1)
        #expect(unforced.error == "error: templates/page.mustache:1:1: this is a folder, where the theme's file goes: move it away, then eject again\n", "\(unforced.error)")
        #expect(!unforced.output.contains("Kept"))
    }

    @Test func anUnknownNameIsWrongUsageListingWhatExistsAndWritesNothing() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        let result = runTomo(["theme", "eject", "layout", "profil", "static/styles.css"], in: site.url)
        #expect(result.status == 2)
        #expect(result.error.contains("\"profil\" (did you mean \"profile\"?)"), "\(result.error)")
        #expect(result.error.contains("\"static/styles.css\" (did you mean \"static/style.css\"?)"), "\(result.error)")
        for name in ["404", "layout", "icons/github", "labels/en.json", "static/style.css", "static/preview.png", "icons", "static"] {
            #expect(result.error.contains(" \(name),") || result.error.contains(" \(name)\n"), "\(name): \(result.error)")
        }
        #expect(result.error.contains("usage: tomo theme eject [NAME...] [--force]"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("templates").path))
    }

    @Test func helpExplainsTheCommand() throws {
        let result = runTomo(["theme", "eject", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Usage: tomo theme eject [NAME...] [--force]"))
        #expect(result.output.contains("--force"))
        let group = runTomo(["theme"])
        #expect(group.status == 2)
        #expect(group.error.contains("eject"))
    }

    /// Nothing is written through a link that leads out of the site.
    @Test func aTemplatesLinkLeadingOutOfTheSiteIsAnError() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        let elsewhere = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("templates").path, withDestinationPath: elsewhere.path)
        let result = runTomo(["theme", "eject", "profile"], in: site.url)
        #expect(result.status == 1)
        #expect(result.error.contains("templates:1:1: this is a symbolic link to"), "\(result.error)")
        #expect(fileTree(elsewhere.url).isEmpty)
    }
}
