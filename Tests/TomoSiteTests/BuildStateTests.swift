import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// The kept state is line-based: an output path with a line break in it (a file of the root
/// static folder may be named so) cannot be kept, so none is saved and the next build is full,
/// rather than one whose lines say something else.
@Suite struct BuildStateTests {
    private static func state(outputs: [String: FileDigest]) -> BuildState {
        BuildState(
            setting: .init(tool: "t", output: "/out", baseURL: "", publishing: "", marker: 1),
            nextChange: nil, pages: 1, images: 0, files: outputs.count, warnings: ["one\nwarning"], inputs: 7,
            keys: [.site: 3], outputs: outputs
        )
    }

    @Test func aStateIsReadBackAsSaved() throws {
        let site = try TemporaryFolder()
        let outputs = ["index.html": FileDigest(hash: 5, size: 10), "a b/c.txt": FileDigest(hash: 6, size: 0)]
        Self.state(outputs: outputs).save(site: site.url)
        var kept = try #require(BuildState.loadSummary(site: site.url, output: "/out"))
        let loaded = kept.loadOutputs(site: site.url)
        #expect(loaded)
        #expect(kept.outputs == outputs)
        #expect(kept.keys == [.site: 3])
        #expect(kept.warnings == ["one warning"])
    }

    @Test(arguments: ["a\nb.txt", "\n", "folder/name\n"])
    func anOutputPathWithALineBreakSavesNoState(path: String) throws {
        let site = try TemporaryFolder()
        Self.state(outputs: ["index.html": FileDigest(hash: 5, size: 10), path: FileDigest(hash: 6, size: 1)]).save(site: site.url)
        #expect(BuildState.loadSummary(site: site.url, output: "/out") == nil)
    }
}
