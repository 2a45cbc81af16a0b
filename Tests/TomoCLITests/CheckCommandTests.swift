import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport


@Suite struct CheckCommandTests {
    @Test func cleanSitePassesWithWarnings() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
            "content/pages/about.md": "---\ntitle: About\n---\nHi\n",
        ])
        let result = runTomo(["check"], in: site.url)
        #expect(result.status == 0)
        #expect(result.output == "1 user, 1 page: 0 errors, 1 warning\n")
        #expect(result.error == "warning: content/users/alice.yaml:1:1: no icon: the page shows a placeholder (add `icon: alice/icon.jpg`)\n")
    }

    @Test func everyErrorIsPrintedAndTheExitStatusIsOne() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/bob.yaml": "name: Bob\nicon: bob.png\nitemColor: pruple\n",
            "content/users/bob.png": "png",
            "content/users/carol.yaml": "name: Carol\nicon: bob.png\nlinks:\n  website: javascript:alert(1)\n",
        ])
        // From a sub-folder: the site is found above the working directory.
        let result = runTomo(["check"], in: site.url.appendingPathComponent("content/users"))
        #expect(result.status == 1)
        #expect(result.error == """
            error: content/users/bob.yaml:3:12: unknown colour "pruple" (did you mean "purple"?)
            error: content/users/carol.yaml:4:12: URL scheme "javascript:" is not allowed: use an http, https or mailto URL

            """)
        #expect(result.output == "2 users, 0 pages: 2 errors, 0 warnings\n")
    }

    @Test func brokenSiteYAMLStillChecksEveryProfile() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\nlanguage: en_GB\n",
            "content/users/alice.yaml": "name: Alice\nshowEmail: yes\n",
        ])
        let result = runTomo(["check", "--site", site.url.path])
        #expect(result.status == 1)
        #expect(result.error.contains("error: content/site.yaml:3:11: language \"en_GB\" is not a BCP 47 language tag: subtags are joined by hyphens, so write en-GB\n"))
        #expect(result.error.contains("error: content/users/alice.yaml:2:12: expected true or false for \"showEmail\", found a string (\"yes\")\n"))
        #expect(result.output == "1 user, 0 pages: 2 errors, 1 warning\n")
    }

    @Test func helpExplainsTheOutput() {
        let result = runTomo(["check", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Usage: tomo check"))
        #expect(result.output.contains("FILE:LINE:COLUMN"))
    }

    @Test func outsideASiteSaysHowToStart() throws {
        let empty = try TemporaryFolder(["readme.txt": "not a site"])
        let result = runTomo(["check"], in: empty.url)
        #expect(result.status == 1)
        #expect(result.error.contains("no tomo site here"))
    }

    /// Started in a folder whose path is longer than 1,024 bytes (Linux allows 4,096), the
    /// binary finds the site above it, or says there is none: it once looked up
    /// `../../…/content/site.yaml` for ever.
    @Test func aLongWorkingFolderPathIsWalkedToTheRoot() throws {
        let top = try TemporaryFolder()
        let deep = (1...6).map { String(repeating: Character(String($0)), count: 200) }.joined(separator: "/")
        let folder = top.url.appendingPathComponent(deep)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(folder.path.utf8.count > 1_200)
        let outside = try ProcessRun.tomo(["check"], in: folder, timeout: .seconds(20))
        #expect(outside.ending == .exited(1) && outside.error.contains("no tomo site here"), "\(outside)")

        let site = top.url.appendingPathComponent(String(repeating: "1", count: 200))
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content"), withIntermediateDirectories: true)
        try "title: T\nbaseURL: https://example.com/\n".write(to: site.appendingPathComponent("content/site.yaml"), atomically: true, encoding: .utf8)
        let inside = try ProcessRun.tomo(["build"], in: folder, timeout: .seconds(60))
        #expect(inside.ending == .exited(0), "\(inside)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
    }
}

@Suite struct CheckCommandThemeTests {
    @Test func checkAlsoReportsMissingPartialsAndABrokenStore() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
            "templates/user-card.mustache": "<li data-handle=\"{{handle}}\">{{>badge}}</li>\n",
            "content/store.json": "{\"version\": 1, \"users\": [}",
        ])
        let result = runTomo(["check"], in: site.url)
        #expect(result.status == 1)
        #expect(result.error.contains("error: content/store.json:1:"))
        #expect(result.error.contains("warning: templates/user-card.mustache:1:30: the partial \"badge\" does not exist"))
    }
}
