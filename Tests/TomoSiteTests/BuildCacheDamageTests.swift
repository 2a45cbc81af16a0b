import Foundation
import Testing
import TomoContent
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// A damaged `.tomo-cache/build` (a byte flipped, a file cut short, garbage, a 19- or 20-digit
/// number, lines lost, doubled or swapped) is never a crash and never a wrong build: whatever the
/// damage, the output is exactly what a full build makes.
extension IncrementalBuildTests {
    /// Ways to damage a cache file, drawn from `random`.
    static func damage(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [UInt8(ascii: "\n")])) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !bytes.isEmpty:
            bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
        case 1:
            bytes.removeLast(Int.random(in: 0...bytes.count, using: &random))
        case 2:
            let garbage = (0..<Int.random(in: 1...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: garbage, at: Int.random(in: 0...bytes.count, using: &random))
        case 3:
            // A number replaced by one that does not fit, or is not one.
            let digitRuns = bytes.indices.filter { (48...57).contains(bytes[$0]) && ($0 == 0 || !(48...57).contains(bytes[$0 - 1])) }
            if let start = digitRuns.isEmpty ? nil : random.pick(digitRuns) {
                let end = bytes[start...].firstIndex { !(48...57).contains($0) } ?? bytes.count
                let number = random.pick(["9223372036854775808", "99999999999999999999", "-9223372036854775809", "-0", "1e309", "", "0x10", "18446744073709551616"])
                bytes.replaceSubrange(start..<end, with: Array(number.utf8))
            }
        case 4 where lines.count > 1:
            var changed = lines
            changed.remove(at: Int.random(in: 0..<changed.count, using: &random))
            bytes = joined(changed)
        case 5 where !lines.isEmpty:
            var changed = lines
            let index = Int.random(in: 0..<changed.count, using: &random)
            changed.insert(changed[index], at: index)
            bytes = joined(changed)
        case 6 where lines.count > 1:
            var changed = lines
            changed.swapAt(Int.random(in: 0..<changed.count, using: &random), Int.random(in: 0..<changed.count, using: &random))
            bytes = joined(changed)
        case 7:
            bytes = []
        case 8:
            // The next moment an item changes, forgotten or moved later: a stale profile page if believed.
            bytes = joined(lines.map { line in
                line.starts(with: Array("next ".utf8)) ? Array("next \(random.pick(["-", "9223372036854775807", "99999999999999999999"]))".utf8) : line
            })
        default:
            bytes.append(contentsOf: Array("f 1 5 index.html\nk 0 site\n".utf8))
        }
        return bytes
    }

    @Test func aDamagedBuildCacheMeansAFullBuildNeverACrashOrAWrongOutput() throws {
        let site = try twoFriends()
        let day: TimeInterval = 24 * 60 * 60
        let firstDate = Date(timeIntervalSince1970: 1_800_000_000)
        // An item that ends between the first build and the later ones: only the kept `next`
        // moment says those builds must show the profile without it.
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Leaving soon\n    until: \(WrittenDate.text(for: firstDate.addingTimeInterval(day), utcOffset: 0))\n")
        try SiteBuilder.build(BuildOptions(site: site.root, buildDate: firstDate))
        let laterDate = firstDate.addingTimeInterval(2 * day)
        let expected = try site.fullBuild(at: laterDate)
        #expect(expected["alice/index.html"]?.contains("Leaving soon") == false)

        for seed in 1...40 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            // The output and the cache as a build on the first day leaves them, then some damage.
            try rewrite(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout this site.\n")
            try SiteBuilder.build(BuildOptions(site: site.root, buildDate: firstDate, full: true))
            // Half the time an edit after it leaves the state as `outputs` and its `changes`.
            if random.chance(0.5) {
                try rewrite(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout this site, first edit.\n")
                try SiteBuilder.build(BuildOptions(site: site.root, buildDate: firstDate))
                try rewrite(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout this site.\n")
                try SiteBuilder.build(BuildOptions(site: site.root, buildDate: firstDate))
            }
            let cache = BuildState.folder(site: site.root, output: site.output.standardizedFileURL.path)
            for name in ["state", "outputs", "changes", "inputs"] where random.chance(0.6) && FileManager.default.fileExists(atPath: cache.appendingPathComponent(name).path) {
                let file = cache.appendingPathComponent(name)
                try Data(Self.damage(Array(try Data(contentsOf: file)), random: &random)).write(to: file)
            }
            let edited = random.chance(0.5)
            if edited { try rewrite(site, "content/pages/about.md", "---\ntitle: About\n---\nAbout this site, edited.\n") }
            let report = try SiteBuilder.build(BuildOptions(site: site.root, buildDate: laterDate))
            let wanted = edited ? try site.fullBuild(at: laterDate) : expected
            #expect(SiteFolder.files(in: site.output) == wanted, "seed \(seed): \(report.nothingChanged ? "nothing changed" : "\(report.written) written")")
        }
    }
}

extension IncrementalBuildTests {
    /// After another tomo's build (its kept state names another binary), a build makes every
    /// file again but knows the output from the kept hashes: it rewrites nothing whose bytes
    /// are the same, counts each file once, and the build after it finds nothing changed.
    @Test func aBuildAfterAnotherTomosBuildCountsEachFileOnceAndKeepsItsState() throws {
        let site = try twoFriends()
        let options = BuildOptions(site: site.root)
        let first = try SiteBuilder.build(options)
        let outputPath = site.output.standardizedFileURL.path
        var kept = try #require(BuildState.loadSummary(site: site.root, output: outputPath))
        let loaded = kept.loadOutputs(site: site.root)
        #expect(loaded)
        kept.setting.tool = "another tomo"
        kept.save(site: site.root)

        let after = try SiteBuilder.build(options)
        #expect(!after.nothingChanged)
        #expect(after.files == first.files && after.written == 0, "\(after.files) files, \(after.written) written")
        #expect(try SiteBuilder.build(options).nothingChanged)
        #expect(SiteFolder.files(in: site.output) == (try site.fullBuild()))
    }
}
