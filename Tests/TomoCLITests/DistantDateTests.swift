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
}
