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
