import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// The kept state is line-based: an output path with a line break in it (a file of the root
/// static folder may be named so) cannot be kept, so none is saved and the next build is full,
/// rather than one whose lines say something else.
@Suite struct BuildStateTests {
    private static func state(outputs: [String: FileDigest], keys: [InputKey: UInt64] = [.site: 3]) -> BuildState {
        BuildState(
            setting: .init(tool: "t", output: "/out", baseURL: "", publishing: "", marker: 1),
            nextChange: nil, pages: 1, images: 0, files: outputs.count, warnings: ["one\nwarning"], inputs: 7,
            keys: keys, outputs: outputs
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

    /// The outputs are written in two halves on two cores, the keys with the first: whatever
    /// the count (none, one, odd, many), every key and output comes back once, as it was.
    @Test(arguments: [0, 1, 3, 2_001])
    func everyKeyAndOutputIsReadBackWhateverTheirCount(count: Int) throws {
        let site = try TemporaryFolder()
        var random = SplitMix64(seed: UInt64(count))
        var outputs: [String: FileDigest] = [:]
        var keys: [InputKey: UInt64] = [:]
        for number in 0..<count {
            outputs["u\(number)/posts/p\(number)/index.html"] = FileDigest(hash: random.next(), size: number % 7 == 0 ? -1 : Int(random.next() >> 1))
            keys[number % 2 == 0 ? .post("u\(number)/p\(number)") : .card("u\(number)")] = random.next()
        }
        Self.state(outputs: outputs, keys: keys).save(site: site.url)
        var kept = try #require(BuildState.loadSummary(site: site.url, output: "/out"))
        let loaded = kept.loadOutputs(site: site.url)
        #expect(loaded)
        #expect(kept.outputs == outputs)
        #expect(kept.keys == keys)
    }

    @Test(arguments: ["a\nb.txt", "\n", "folder/name\n"])
    func anOutputPathWithALineBreakSavesNoState(path: String) throws {
        let site = try TemporaryFolder()
        Self.state(outputs: ["index.html": FileDigest(hash: 5, size: 10), path: FileDigest(hash: 6, size: 1)]).save(site: site.url)
        #expect(BuildState.loadSummary(site: site.url, output: "/out") == nil)
    }
}
