import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// Text typed on the command line passes the rule content files pass (`ForbiddenCharacters`):
/// for every free-text option and every code point of the table, the command either refuses
/// (exit 2, naming the option) and changes nothing, or what it wrote passes `tomo check` and
/// builds.
@Suite struct CommandLineTextTests {
    static let photo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    /// Refused everywhere: C0 (but tab, line feed, carriage return), DEL, C1 with NEL, the
    /// noncharacters.
    static let forbidden: [Unicode.Scalar] = [
        0x0, 0x1, 0x1B, 0x7F, 0x80, 0x85, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFF, 0x10FFFF,
    ].compactMap(Unicode.Scalar.init(_:))
    /// Text a site may hold: line breaks and tabs, bidirectional marks, separators, letters.
    static let allowed: [Unicode.Scalar] = [
        "\t", "\n", "\r", "\u{A0}", "\u{AD}", "\u{E9}", "\u{200E}", "\u{202E}", "\u{2028}", "\u{3000}", "\u{FEFF}", "\u{FFFD}", "\u{1F600}",
    ]

    /// Every option whose value is free text, as a command taking `TEXT` in place of the value;
    /// `N` is the number of the code point tried, so that each one writes a place of its own
    /// (a post, a user, a report) and all of them can be checked and built together.
    static let commands: [[String]] = [
        ["post", "add", "alice", "PHOTO", "--slug", "new-N", "--caption", "TEXT"],
        ["post", "add", "alice", "PHOTO", "--slug", "new-N", "--alt", "TEXT"],
        ["report", "uN", "alice/sunset", "--reason", "TEXT"],
        ["user", "set", "uN", "--gender", "TEXT"],
        ["user", "set", "uN", "--seeking", "TEXT"],
        ["user", "set", "uN", "--name", "TEXT"],
        ["user", "add", "carolN", "--name", "TEXT"],
    ]

    /// A site that builds: alice with a post, bob, and `users` more named u0, u1…
    static func site(users: Int = 0) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        let handles = ["alice", "bob"] + (0..<users).map { "u\($0)" }
        try folder.write("users.txt", handles.map { "user add \($0)\n" }.joined())
        #expect(runTomo(["batch", "users.txt"], in: folder.url).status == 0)
        try folder.copy(photo, to: "content/posts/alice/sunset.jpg")
        try folder.copy(photo, to: "photo.jpg")
        try folder.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nEvening.\n")
        return folder
    }

    /// Every file under `content/` with its bytes.
    static func content(of site: TemporaryFolder) -> [String: Data] {
        var files: [String: Data] = [:]
        let root = site.url.appendingPathComponent("content").standardizedFileURL.path
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root + "/" + path) { files[path] = data }
        }
        return files
    }

    @Test(arguments: commands) func everyCodePointIsRefusedOrWrittenSoThatTheSiteStillBuilds(command: [String]) throws {
        let scalars = Self.forbidden + Self.allowed
        let site = try Self.site(users: scalars.count)
        var taken: [String] = []
        for (number, scalar) in scalars.enumerated() {
            let text = "a" + String(Character(scalar)) + "b"
            let before = Self.content(of: site)
            let words = command.map {
                $0 == "TEXT" ? text : $0 == "PHOTO" ? site.url.appendingPathComponent("photo.jpg").path : $0.replacingOccurrences(of: "N", with: String(number))
            }
            let result = runTomo(words, in: site.url)
            let what = "\(command.joined(separator: " ")) with U+\(String(scalar.value, radix: 16, uppercase: true))"
            if Self.forbidden.contains(scalar) {
                let option = command[command.count - 2]
                #expect(result.status == 2, "\(what): \(result.output)\(result.error)")
                #expect(result.error.contains("error: \(option) holds \(ForbiddenCharacters.describe(scalar))"), "\(what): \(result.error)")
            }
            if result.status != 0 {
                #expect(result.status == 1 || result.status == 2, "\(what)")
                #expect(result.error.hasPrefix("error: "), "\(what): \(result.error)")
                #expect(Self.content(of: site) == before, "\(what) was refused but changed the content")
            } else {
                taken.append(what)
            }
        }
        // Every text taken, each at its own place, passes the check and builds.
        let check = runTomo(["check"], in: site.url)
        #expect(check.status == 0, "\(taken) were taken, then tomo check: \(check.error)")
        #expect(runTomo(["build"], in: site.url).status == 0, "\(taken) were taken, then tomo build failed")
    }

    /// The same rule on a store edited by hand: a text holding what the command line may not
    /// type is an error at its place, for every command that reads it and for `tomo check`.
    @Test func aStoreTextWithAForbiddenCharacterIsAnErrorAtItsPlace() throws {
        for escape in ["\\u001b[31m", "\\u0085", "\\u007f", "\\ufffe", "\u{85}", "\u{7F}"] {
            let site = try Self.site()
            #expect(runTomo(["report", "bob", "alice/sunset", "--reason", "spam"], in: site.url).status == 0)
            let store = site.url.appendingPathComponent("content/store.json")
            let text = try String(contentsOf: store, encoding: .utf8)
            try text.replacingOccurrences(of: "\"spam\"", with: "\"sp\(escape)am\"").write(to: store, atomically: true, encoding: .utf8)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"spam\"") }.map { $0 + 1 } ?? 0
            for command in [["reports"], ["check"], ["build"]] {
                let result = runTomo(command, in: site.url)
                #expect(result.status == 1, "\(command) with \(escape)")
                #expect(result.error.contains("error: content/store.json:\(line):"), "\(command) with \(escape): \(result.error)")
                #expect(result.error.contains("this string holds the "), "\(command) with \(escape): \(result.error)")
            }
        }
    }

    /// An option given twice is refused: which of the two was meant cannot be told.
    @Test func anOptionGivenTwiceIsWrongUsage() throws {
        let site = try Self.site()
        let before = Self.content(of: site)
        for words in [
            ["report", "bob", "alice/sunset", "--reason", "one", "--reason", "two"],
            ["user", "set", "bob", "--gender", "f", "--gender=m"],
            ["post", "rm", "alice/sunset", "--yes", "--yes"],
            ["--site", ".", "user", "list", "--site", "."],
        ] {
            let result = runTomo(words, in: site.url)
            #expect(result.status == 2, "\(words)")
            #expect(result.error.contains("is given twice: give it once"), "\(words): \(result.error)")
        }
        #expect(Self.content(of: site) == before)
    }
}
