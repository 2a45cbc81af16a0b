import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoContent

/// A file's extension and base name decide what a file is (a post, a profile, a photo) and a
/// post's slug: looked for in the name's bytes, they must be what the name's characters say.
@Suite struct FileNameTests {
    /// What the names' characters say: the text after the last `.` character, none for a name
    /// that only starts with one, and the name without it and its dot.
    private static func characterExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    @Test func extensionsAndBaseNamesAreWhatTheCharactersSay() {
        var random = SplitMix64(seed: 20261204)
        let pieces = [".", ".", "a", "md", "yaml", "-", " ", "é", "日本", "😀", "\u{00AD}", "JPG", ".."]
        for _ in 0..<5_000 {
            let name = (0..<Int.random(in: 0...6, using: &random)).map { _ in random.pick(pieces) }.joined()
            let expected = Self.characterExtension(name)
            #expect(ContentPath.fileExtension(of: name) == expected, "\(name.debugDescription)")
            #expect(ContentPath.baseName(of: name) == (expected.isEmpty ? name : String(name.dropLast(expected.count + 1))), "\(name.debugDescription)")
        }
    }

    @Test func namesWithADotAtEitherEnd() {
        #expect(ContentPath.fileExtension(of: ".hidden") == "")
        #expect(ContentPath.baseName(of: ".hidden") == ".hidden")
        #expect(ContentPath.fileExtension(of: "draft.") == "")
        #expect(ContentPath.baseName(of: "draft.") == "draft.")
        #expect(ContentPath.baseName(of: "sunset.photo.md") == "sunset.photo")
        #expect(ContentPath.fileExtension(of: "日本.md") == "md")
    }
}
