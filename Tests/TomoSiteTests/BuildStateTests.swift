import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// The kept state is read back as it was saved, whole or as changes since. Its `changes` file is
/// line-based: an output path with a line break in it (a file of the root static folder may be
/// named so) cannot be kept, so none is saved and the next build is full, rather than one whose
/// lines say something else.
@Suite struct BuildStateTests {
    private static func state(outputs: [String: FileDigest], keys: [InputKey: UInt64] = [.site: 3]) -> BuildState {
        BuildState(
            setting: .init(tool: "t", output: "/out", baseURL: "", publishing: "", marker: 1),
            nextChange: nil, pages: 1, images: 0, files: outputs.count, warnings: ["one\nwarning"], inputs: 7,
            keys: keys, outputs: OutputDigests(outputs)
        )
    }

    @Test func aStateIsReadBackAsSaved() throws {
        let site = try TemporaryFolder()
        let outputs = ["index.html": FileDigest(hash: 5, size: 10), "a b/c.txt": FileDigest(hash: 6, size: 0)]
        Self.state(outputs: outputs).save(site: site.url)
        var kept = try #require(BuildState.loadSummary(site: site.url, output: "/out"))
        let loaded = kept.loadOutputs(site: site.url)
        #expect(loaded)
        #expect(kept.outputs.dictionary == outputs)
        #expect(kept.keys == [.site: 3])
        #expect(kept.warnings == ["one warning"])
    }

    /// Whatever the count (none, one, odd, many), every key and output comes back once, as it was.
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
        #expect(kept.outputs.dictionary == outputs)
        #expect(kept.keys == keys)
    }

    /// A build after an edit writes only the keys and outputs changed since `outputs` was
    /// written whole; read back, `outputs` and `changes` are the state as it was saved, through
    /// edits, new and gone keys and files, until the changes grow and `outputs` is written anew.
    @Test func changesSavedSinceAStateReadBackAsTheWholeState() throws {
        let site = try TemporaryFolder()
        var random = SplitMix64(seed: 20261204)
        var outputs: [String: FileDigest] = [:]
        var keys: [InputKey: UInt64] = [:]
        for number in 0..<300 {
            outputs["u\(number)/index.html"] = FileDigest(hash: random.next(), size: number)
            keys[.profile("u\(number)")] = random.next()
        }
        Self.state(outputs: outputs, keys: keys).save(site: site.url)
        var writtenWhole = 0
        var previous = try #require(BuildState.loadSummary(site: site.url, output: "/out"))
        let loaded = previous.loadOutputs(site: site.url)
        #expect(loaded)
        for step in 0..<400 {
            var changedPaths: [String] = []
            var changedKeys: [InputKey] = []
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let number = Int.random(in: 0..<5_000, using: &random)
                let path = "u\(number)/index.html"
                let key = InputKey.profile("u\(number)")
                // Set, gone, or named as changed while it stays as it was.
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    outputs[path] = FileDigest(hash: random.next(), size: step)
                    keys[key] = random.next()
                case 1:
                    outputs[path] = nil
                    keys[key] = nil
                default:
                    break
                }
                changedPaths.append(path)
                changedKeys.append(key)
            }
            Self.state(outputs: outputs, keys: keys).save(site: site.url, since: previous, changedKeys: Set(changedKeys), changedPaths: changedPaths)
            var kept = try #require(BuildState.loadSummary(site: site.url, output: "/out"))
            let loaded = kept.loadOutputs(site: site.url)
            #expect(loaded, "step \(step)")
            #expect(kept.outputs.dictionary == outputs, "step \(step)")
            #expect(kept.keys == keys, "step \(step)")
            if kept.changesDigest == nil { writtenWhole += 1 }
            previous = kept
        }
        // 4,096 changes (the least a small site keeps) fill up every hundred or so steps.
        #expect((1...20).contains(writtenWhole), "written whole \(writtenWhole) times")
    }

    @Test(arguments: ["a\nb.txt", "\n", "folder/name\n"])
    func anOutputPathWithALineBreakSavesNoState(path: String) throws {
        let site = try TemporaryFolder()
        Self.state(outputs: ["index.html": FileDigest(hash: 5, size: 10), path: FileDigest(hash: 6, size: 1)]).save(site: site.url)
        #expect(BuildState.loadSummary(site: site.url, output: "/out") == nil)
    }
}
