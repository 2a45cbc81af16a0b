import Testing
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// The kept output digests (a table read from the kept state, with the changes since in a
/// dictionary) answer as one dictionary given the same changes would: random sets, removals and
/// lookups, written and read back between rounds, against a plain dictionary.
@Suite struct OutputDigestsTests {
    private static func readBack(_ digests: OutputDigests) throws -> OutputDigests {
        var writer = ByteWriter()
        #expect(digests.write(into: &writer))
        var reader = ByteReader(writer.bytes)
        let table = try #require(OutputDigests.Table(reading: &reader, in: writer.bytes))
        return OutputDigests(table: table)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aTableWithChangesAnswersAsADictionary(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        // Paths that share beginnings, are prefixes of each other, or are not ASCII.
        let paths = (0..<400).map { number in
            ["u\(number % 37)/index.html", "u\(number % 37)/posts/p\(number)/index.html", "u\(number)", "ü\(number)/é.html", "u\(number % 37)/posts/p\(number)"][number % 5]
        }
        var oracle: [String: FileDigest] = [:]
        var digests = OutputDigests()
        for round in 0..<12 {
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                let path = random.pick(paths)
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    #expect(digests.removeValue(forKey: path) == oracle.removeValue(forKey: path), "round \(round)")
                case 1:
                    // Set back to what it is: no change.
                    if let same = oracle[path] { digests[path] = same }
                default:
                    let digest = FileDigest(hash: random.next() % 4, size: Int.random(in: -1...3, using: &random))
                    digests[path] = digest
                    oracle[path] = digest
                }
                #expect(digests.count == oracle.count, "round \(round)")
            }
            for path in paths { #expect(digests[path] == oracle[path], "round \(round): \(path)") }
            #expect(digests.dictionary == oracle, "round \(round)")
            #expect(Set(digests.paths) == Set(oracle.keys) && digests.paths.count == oracle.count, "round \(round)")
            #expect(Set(digests.pathsGiven) == Set(oracle.keys) && digests.pathsGiven.count == oracle.count, "round \(round)")
            digests = try Self.readBack(digests)
            #expect(digests.dictionary == oracle, "round \(round), read back")
            #expect(Set(digests.pathsGiven) == Set(oracle.keys) && digests.pathsGiven.count == oracle.count, "round \(round), read back")
            #expect(digests.count == oracle.count, "round \(round), read back")
        }
    }

    /// A table of any size (no entry, one, a power of two and either side of one) finds each of
    /// its paths and none of the paths it lacks: lookups go by the leading bits of the path's hash.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 7, 8, 9, 1_023, 1_024, 1_025, 5_000])
    func aTableOfAnySizeFindsEveryPathItHolds(count: Int) throws {
        let held = (0..<count).map { "u\($0 % 97)/posts/p\($0)/index.html" }
        let digests = try Self.readBack(OutputDigests(Dictionary(uniqueKeysWithValues: held.enumerated().map { ($1, FileDigest(hash: UInt64($0), size: $0)) })))
        #expect(digests.count == count)
        for (number, path) in held.enumerated() { #expect(digests[path] == FileDigest(hash: UInt64(number), size: number), "\(path)") }
        for number in count..<count + 200 { #expect(digests["u\(number % 97)/posts/p\(number)/index.html"] == nil) }
        #expect(digests[""] == nil)
    }

    /// Entries out of order, or bytes after the last one, are not a table: the kept state that
    /// holds them is ignored (a full build), never half believed.
    @Test func entriesOutOfOrderOrTrailingBytesAreNoTable() throws {
        var writer = ByteWriter()
        #expect(OutputDigests(["a": FileDigest(hash: 1, size: 1), "b": FileDigest(hash: 2, size: 2), "c": FileDigest(hash: 3, size: 3)]).write(into: &writer))
        var good = ByteReader(writer.bytes)
        #expect(OutputDigests.Table(reading: &good, in: writer.bytes)?.count == 3)
        var trailing = writer.bytes
        trailing.append(0)
        var reader = ByteReader(trailing)
        #expect(OutputDigests.Table(reading: &reader, in: trailing) == nil)
        // The same three entries, the first two swapped.
        var swapped = ByteWriter()
        swapped.write(UInt64(3))
        var entries: [(UInt64, String, FileDigest)] = []
        for (path, number) in [("a", 1), ("b", 2), ("c", 3)] { entries.append((OutputDigests.Table.hash(path), path, FileDigest(hash: UInt64(number), size: number))) }
        entries.sort { $0.0 < $1.0 }
        entries.swapAt(0, 1)
        for (_, path, digest) in entries {
            var path = path
            path.withUTF8 { OutputDigests.Table.writeEntry(path: $0, digest: digest, into: &swapped) }
        }
        var outOfOrder = ByteReader(swapped.bytes)
        #expect(OutputDigests.Table(reading: &outOfOrder, in: swapped.bytes) == nil)
    }
}

extension OutputDigests {
    /// Every path and digest, as one dictionary: what the tests compare with a plain one.
    var dictionary: [String: FileDigest] {
        var all: [String: FileDigest] = [:]
        all.reserveCapacity(count)
        forEach { all[$0] = $1 }
        return all
    }

    /// Every path `forEachPath` gives, as strings, each time it gives it.
    var pathsGiven: [String] {
        var paths: [String] = []
        forEachPath { paths.append(String(decoding: $0, as: UTF8.self)) }
        return paths
    }
}
