import Foundation
import Synchronization
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// What `tomo serve` prints when the site does not build: whether anything good is served, the
/// problems in `tomo check`'s order, and each problem once while it stays.
@Suite struct ServeFailureMessageTests {
    /// The `error: ` lines of `text`, in order.
    static func errorLines(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map(String.init)
    }

    /// A site of one profile, `alice`, with `profile` as its text, and `tomo serve` on it.
    static func served(profile: String) throws -> (site: TemporaryFolder, preview: LoggedPreview) {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\n", "content/users/alice.yaml": profile])
        return (site, try LoggedPreview(site: site.url))
    }

    @Test func aSiteThatNeverBuiltSaysSoInsteadOfALastGoodSite() throws {
        let (site, preview) = try Self.served(profile: "name: [\n")
        defer { preview.stop() }
        try site.write("content/users/alice.yaml", "name: [[\n")
        let failed = try preview.line { $0.contains("content/users/alice.yaml") && !$0.hasPrefix("error: ") }
        #expect(failed.contains("The site has not built yet"), "\(failed)")
        #expect(!failed.contains("last good site"), "\(failed)")
    }

    @Test func theFirstBuildsFailureOnANewSiteSaysSoToo() {
        let lines = Mutex<[String]>([])
        let console = Console { _, text in lines.withLock { $0.append(text) } }
        ServeCommand.report(.failed(new: [Diagnostic("broken", at: SourceLocation(file: "content/site.yaml", line: 1, column: 1))], errorsShownBefore: 0, after: nil, servesGoodSite: false), on: console)
        let text = lines.withLock { $0.joined() }
        #expect(text.contains("The site has not built yet"), "\(text)")
        #expect(!text.contains("last good site"), "\(text)")
    }

    @Test func errorsAreSortedAsCheckSortsThemAndAStoreErrorIsPrintedOnce() throws {
        let (site, preview) = try Self.served(profile: "name: Alice\n")
        defer { preview.stop() }

        try site.write("content/store.json", "{\n")
        guard case .failed(let storeFailure) = try preview.settle(step: 1) else {
            Issue.record("a broken store does not fail the rebuild")
            return
        }
        #expect(Self.errorLines(storeFailure).count == 1, "\(storeFailure)")
        // Three broken pages moved in at once, while the store stays broken.
        let pages = try TemporaryFolder()
        for name in ["c", "a", "b"] { try pages.write("\(name).md", "---\ntitle: [\n---\n") }
        try FileManager.default.moveItem(at: pages.url, to: site.url.appendingPathComponent("content/pages"))
        guard case .failed(let pageFailure) = try preview.settle(step: 2) else {
            Issue.record("broken pages do not fail the rebuild")
            return
        }
        let printed = Self.errorLines(pageFailure)
        #expect(printed.count == 3 && printed.allSatisfy { $0.contains("content/pages/") }, "\(pageFailure)")
        #expect(pageFailure.contains("(and 1 error shown before)"), "\(pageFailure)")
        // The order `tomo check` prints them in.
        let check = Self.errorLines(runTomo(["check"], in: site.url).error).filter { $0.contains("content/pages/") }
        #expect(printed == check, "\(printed) \(check)")
        // Nothing new: only a line that says so.
        try site.write("content/pages/a.md", "---\ntitle: [\n---\n")
        guard case .failed(let again) = try preview.settle(step: 3) else {
            Issue.record("the rebuild did not fail")
            return
        }
        #expect(Self.errorLines(again).isEmpty, "\(again)")
        #expect(again.contains("failed with the same 4 errors as before. The last good site is still served"), "\(again)")
    }
}
