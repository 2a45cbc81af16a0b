import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// Dates the content may hold but a count of nanoseconds cannot (after April 2262): an item's
/// `from` or `until` that far away builds, and so does every build after it.
@Suite struct DistantDateTests {
    static let moments = ["2262-04-12", "2999-12-31", "9999-12-31", "9999-12-31T23:59:59+14:00"]

    @Test(arguments: moments) func anItemDatedBeyond2262BuildsAgainAndAgain(moment: String) throws {
        for key in ["from", "until"] {
            let folder = try TemporaryFolder()
            try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
            try folder.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Far away\n    \(key): \(moment)\n  - text: Always\n")
            // The real binary: a trap is a signal, not an exit status.
            let first = try runBinary(["build"], in: folder.url)
            #expect(first.status == 0, "\(key): \(moment): \(first.error)")
            let page = FileManager.default.contents(atPath: folder.url.appendingPathComponent("public/alice/index.html").path)
            let shown = page.map { String(decoding: $0, as: UTF8.self).contains("Far away") }
            #expect(shown == (key == "until"), "\(key): \(moment)")
            let second = try runBinary(["build"], in: folder.url)
            #expect(second.status == 0, "\(key): \(moment): \(second.error)")
            #expect(second.output.hasPrefix("Nothing changed since the last build"), "\(key): \(moment): \(second.output)")
        }
    }

    /// Posts whose instants differ by less than a Double can tell apart (near the year 1 a
    /// few µs, near 2026 about 0.2 µs) are ordered by their instants as written, newest
    /// first, not taken for ties and ordered by id: on the timeline and in `tomo post list`.
    @Test func postsCloserThanADoubleTellsApartKeepTheirOrder() throws {
        let folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        try folder.write("content/users/a.yaml", "name: A\n")
        #expect(runTomo(["user", "add", "a"], in: folder.url).status == 0)
        let dates = [
            "a-older": "0001-01-01T00:00:00Z", "b-newer": "0001-01-01T00:00:00.000002Z",
            "c-older": "2026-01-01T01:00:00.0999999Z", "d-newer": "2026-01-01T10:00:00.1+09:00",
        ]
        for (slug, date) in dates {
            try folder.copy(sampleJPEG, to: "content/posts/a/\(slug).jpg")
            try folder.write("content/posts/a/\(slug).md", "---\nphoto: \(slug).jpg\ndate: \(date)\nalt: x\n---\n")
        }
        let newestFirst = ["a/d-newer", "a/c-older", "a/b-newer", "a/a-older"]
        let listed = runTomo(["post", "list"], in: folder.url)
        #expect(listed.output.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) } == newestFirst, "\(listed.output)")
        #expect(runTomo(["build"], in: folder.url).status == 0)
        let timeline = try String(contentsOf: folder.url.appendingPathComponent("public/a/timeline/index.html"), encoding: .utf8)
        let shown = timeline.components(separatedBy: "data-post-id=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(shown == newestFirst, "\(shown)")
    }
}
