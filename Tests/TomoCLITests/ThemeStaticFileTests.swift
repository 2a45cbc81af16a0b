import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// The theme's static files (`templates/static/`) as `tomo check`, `tomo build` and
/// `tomo serve` all see them: a file the site's theme cannot publish is one error at that file,
/// found before anything is written.
@Suite struct ThemeStaticFileTests {
    /// The whole theme ejected, as `tomo theme eject` leaves it.
    static func ejectedSite() throws -> TemporaryFolder {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        #expect(runTomo(["theme", "eject"], in: site.url).status == 0)
        return site
    }

    /// `static/style.css` made a folder with a file in it.
    static func replaceStyleSheetByAFolder(in site: TemporaryFolder) throws {
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("templates/static/style.css"))
        try site.write("templates/static/style.css/a.txt", "a\n")
    }

    static let folderError = "error: templates/static/style.css:1:1: the theme has a file static/style.css, and this folder takes its place (with templates/static/style.css/a.txt in it): rename the folder, or delete it to keep the theme's file"

    /// The `error:` lines printed.
    static func errors(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") }
    }

    @Test func aFolderInPlaceOfAThemeFileIsOneErrorAtItForCheckAndBuild() throws {
        let site = try Self.ejectedSite()
        try Self.replaceStyleSheetByAFolder(in: site)
        let check = runTomo(["check"], in: site.url)
        #expect(check.status == 1 && Self.errors(check.error) == [Self.folderError], "\(check.output)\(check.error)")
        let first = runTomo(["build"], in: site.url)
        #expect(first.status == 1 && Self.errors(first.error) == [Self.folderError], "\(first.error)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    /// A host whose names ignore letter case keeps one of two theme files that differ only in
    /// it: one beside the built-in theme's, or two of the site's own.
    @Test func aThemeFileDifferingFromAnotherOnlyInLetterCaseIsAnError() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        try site.write("templates/static/STYLE.CSS", "body {}\n")
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1 && Self.errors(run.error) == ["error: templates/static/STYLE.CSS:1:1: this file differs only in letter case from the theme's file static/style.css; a host whose file names ignore case keeps only one of them: rename or remove this file"], "\(command): \(run.error)")
        }
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("templates/static/STYLE.CSS"))
        try site.write("templates/static/a.js", "1\n")
        try site.write("templates/static/A.js", "2\n")
        let run = runTomo(["check"], in: site.url)
        #expect(run.status == 1 && Self.errors(run.error).count == 2 && run.error.contains("templates/static/a.js:1:1: this file differs only in letter case from templates/static/A.js"), "\(run.error)")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("templates/static/A.js"))
        #expect(runTomo(["build"], in: site.url).status == 0)
    }

    @Test func aFolderInPlaceOfAThemeFileLeavesTheLastOutputAsItWas() throws {
        let site = try Self.ejectedSite()
        #expect(runTomo(["build"], in: site.url).status == 0)
        let style = site.url.appendingPathComponent("public/static/style.css")
        let before = try Data(contentsOf: style)
        try Self.replaceStyleSheetByAFolder(in: site)
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 1 && Self.errors(build.error) == [Self.folderError], "\(build.error)")
        #expect(try Data(contentsOf: style) == before)
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/static/style.css/a.txt").path))
    }

    @Test func aFolderInPlaceOfAThemeFileFailsTheServedSiteToo() throws {
        let site = try Self.ejectedSite()
        let preview = try LoggedPreview(site: site.url)
        defer { preview.stop() }
        try Self.replaceStyleSheetByAFolder(in: site)
        guard case .failed(let text) = try preview.settle(step: 1) else {
            Issue.record("tomo serve publishes a folder in place of the theme's style sheet")
            return
        }
        #expect(Self.errors(text) == [Self.folderError], "\(text)")
    }

    /// As `nobody` (root reads any file): a static file of the theme that cannot be read is
    /// an error at it with the reason and the fix, as an unreadable template is.
    @Test func anUnreadableThemeFileIsAnErrorAtItWithTheFix() throws {
        let site = try Self.ejectedSite()
        #expect(runTomo(["build"], in: site.url).status == 0)
        try Unprivileged.handOver(site.url)
        let style = site.url.appendingPathComponent("templates/static/style.css")
        #expect(chmod(style.path, 0) == 0)
        defer { chmod(style.path, 0o644) }
        let expected = "error: templates/static/style.css:1:1: cannot read this static file of the theme: permission denied: make it readable (chmod u+r)"
        for command in ["check", "build"] {
            let result = try Unprivileged.tomo([command], in: site.url)
            #expect(result.status == 1 && Self.errors(result.error) == [expected], "\(command): \(result.error)")
        }
    }
}
