import Testing
import TomoCore
import TomoTestSupport
@testable import TomoServer

/// The kept snapshot's manifest (`Manifest`, read as a `KeptSnapshot`): every path that can be
/// a line reads back as it was written and leads to its blob; a path with a line break or a tab
/// is left out, never split into two entries.
@Suite struct ManifestTests {
    @Test func pathsReadBackAsWrittenAndLineBreaksAndTabsAreLeftOut() throws {
        let blob = BlobName(of: Array("page".utf8))
        let kept = ["index.html", "alice/index.html", "ユーザー/index.html", "a b/c.html", "emoji-😀/index.html", "x\u{7f}y"]
        let dropped = ["line\nbreak", "carriage\rreturn", "tab\there", "crlf\r\nx", "separator\u{2028}x", "next\u{85}line"]
        let bytes = Manifest.bytes(of: (kept + dropped).map { (path: $0, blob: blob) }, count: 0)
        let snapshot = try #require(KeptSnapshot(manifest: bytes))
        #expect(snapshot.entries.map(\.path).sorted() == kept.sorted())
        #expect(snapshot.entries.allSatisfy { $0.blob == blob })
        for path in kept { #expect(snapshot.blob(at: path) == blob, "\(path)") }
        for path in dropped { #expect(snapshot.blob(at: path) == nil, "\(path.debugDescription)") }
    }

    /// Seeded snapshots of every size of blob read back as written, each path leads to its
    /// blob (the later line's when a path is written twice) and no other path leads anywhere,
    /// and each name reads back from its text.
    @Test func seededSnapshotsReadBackAsWritten() throws {
        var random = SplitMix64(seed: 0x3a7f)
        for _ in 0..<200 {
            let entries = (0..<Int.random(in: 0...50, using: &random)).map { number in
                // Some paths twice, from a small range.
                (path: "u\(Int.random(in: 0...number, using: &random))/\(Int.random(in: 0...3, using: &random))/index.html",
                 blob: BlobName(of: (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            }
            let snapshot = try #require(KeptSnapshot(manifest: Manifest.bytes(of: entries, count: entries.count)))
            #expect(snapshot.count == entries.count)
            #expect(snapshot.entries.map { "\($0.path) \($0.blob.text)" }.sorted() == entries.map { "\($0.path) \($0.blob.text)" }.sorted())
            let latest = Dictionary(entries.map { ($0.path, $0.blob) }, uniquingKeysWith: { _, later in later })
            for (path, blob) in latest { #expect(snapshot.blob(at: path) == blob) }
            #expect(snapshot.blob(at: "u0/4/index.html") == nil && snapshot.blob(at: "") == nil)
            for entry in entries { #expect(BlobName(text: Substring(entry.blob.text)) == entry.blob) }
        }
    }

    /// A manifest whose trailer is right but one of whose lines is not what Tomo writes (no
    /// tab, a name in capitals, with a leading zero, too short or too long) is refused whole.
    @Test(arguments: ["no tab here", "0123456789ABCDEF-1f\tx", "0123456789abcdef-01f\tx", "0123456789abcde-1f\tx",
                      "0123456789abcdef-\tx", "0123456789abcdef-11111111111111111\tx", "0123456789abcdef_1f\tx"])
    func aLineTomoDoesNotWriteRefusesTheManifest(line: String) {
        let good = "0123456789abcdef-1f\tindex.html"
        var body = Array("tomo serve manifest 1\n\(good)\n\(line)\n".utf8)
        var hasher = StableHasher()
        hasher.add(bytes: body)
        body += Array("end\t2\t\(String(hasher.value, radix: 16))\n".utf8)
        #expect(KeptSnapshot(manifest: body) == nil)
        // The same manifest with the good line twice is read.
        var fine = Array("tomo serve manifest 1\n\(good)\n\(good)\n".utf8)
        var fineHasher = StableHasher()
        fineHasher.add(bytes: fine)
        fine += Array("end\t2\t\(String(fineHasher.value, radix: 16))\n".utf8)
        #expect(KeptSnapshot(manifest: fine)?.count == 2)
    }
}
