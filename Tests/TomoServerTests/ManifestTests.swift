import Testing
@testable import TomoServer

/// The kept snapshot's manifest (`Manifest`): every path that can be a line reads back as it
/// was written; a path with a line break or a tab is left out, never split into two entries.
@Suite struct ManifestTests {
    @Test func pathsReadBackAsWrittenAndLineBreaksAndTabsAreLeftOut() throws {
        let blob = BlobName(of: Array("page".utf8))
        let kept = ["index.html", "alice/index.html", "ユーザー/index.html", "a b/c.html", "emoji-😀/index.html", "x\u{7f}y"]
        let dropped = ["line\nbreak", "carriage\rreturn", "tab\there", "crlf\r\nx", "separator\u{2028}x", "next\u{85}line"]
        let bytes = Manifest.bytes(of: (kept + dropped).map { (path: $0, blob: blob) })
        let entries = try #require(Manifest.entries(in: bytes))
        #expect(entries.map(\.path) == kept)
        #expect(entries.allSatisfy { $0.blob == blob })
    }
}
