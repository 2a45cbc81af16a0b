import Foundation
import Synchronization
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// Text from the store, the content and diagnostics reaches the terminal with its control
/// characters escaped, whichever command prints it; the colours tomo adds itself still work.
@Suite struct TerminalSafetyTests {
    /// Every C0 control character, DEL and every C1 control character.
    static let controls = (0x00...0x1F).map { Character(Unicode.Scalar(UInt8($0))) } + (0x7F...0x9F).compactMap { Unicode.Scalar($0).map(Character.init) }
    /// A value carrying all of them, with a terminal escape sequence at its start.
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J" + String(controls) + "end"

    /// The control characters in `text` that a terminal would act on (line feeds and tabs only lay out).
    static func liveControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || (0x7F...0x9F).contains($0) }
    }

    /// A site whose profile (in JSON) holds `hostile` as the user's name, and whose store, edited
    /// by hand, holds it as a report's reason.
    static func site() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.url.path]).status == 0)
        try folder.writePost("example/p")
        let value = JSONWriter.string(.string(hostile), style: .compact)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/users/example.yaml"))
        try folder.write("content/users/example.json", "{\"name\": \(value)}")
        try folder.write("content/store.json", """
        {"version": 1,
         "users": [{"approveFollows": false, "created": "2026-05-01T00:00:00.000Z", "handle": "example", "name": \(value)}],
         "follows": [], "requests": [], "blocks": [], "likes": {}, "picks": [], "hidden": ["example/p"],
         "reports": [{"created": "2026-05-01T00:00:00.000Z", "post": "example/p", "reason": \(value), "user": "example"}]}
        """)
        return folder
    }

    /// Commands that print the name or the reason.
    static let printing: [[String]] = [["reports"], ["reports", "--json"], ["user", "list"], ["user", "show", "example"], ["user", "list", "--json"]]

    /// A store string holding a control character is refused at its place in store.json, and
    /// the error that quotes it reaches the terminal escaped.
    @Test(arguments: printing)
    func storeAndProfileTextIsPrintedWithoutLiveControlCharacters(command: [String]) throws {
        let site = try Self.site()
        let result = runTomo(command + ["--site", site.url.path])
        #expect(Self.liveControls(result.output + result.error).isEmpty, "\(result.output.debugDescription) \(result.error.debugDescription)")
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("content/store.json:"), "\(result.error)")
    }

    @Test func aDiagnosticQuotingAValueIsPrintedWithoutLiveControlCharacters() throws {
        let site = try Self.site()
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/store.json"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/example.json"))
        // A colour name, a link and a page file name that hold escape sequences.
        try site.write("content/users/example.yaml", "name: Example\nitemColor: \"\\e[31mred\\e]0;x\\a\"\nlinks:\n  website: \"\\e[2Jhttp://x\"\n")
        try site.write("content/pages/\u{1B}[2J\u{9B}31m.md", "# Page\n")
        for command in [["check"], ["build"]] {
            let result = runTomo(command + ["--site", site.url.path])
            #expect(result.status == 1, "\(command) \(result.error)")
            #expect(result.error.contains("content/"))
            #expect(Self.liveControls(result.output + result.error).isEmpty, "\(command) \(result.error.debugDescription)")
        }
    }

    @Test func coloursTomoAddsStillReachATerminalAndPaintedTextIsEscapedToo() {
        let captured = CapturedConsole(colors: true)
        let console = captured.console
        console.line("\(console.paint("bold\u{1B}[0m", .bold)) \("plain\u{1B}[31m")")
        console.error("bad \u{9B}2J")
        console.warning(ConsoleText("tab\tand line\nstay"))
        console.line("own\tlayout \("value\twith\nbreaks")")
        #expect(captured.output == "\u{1B}[1mbold\\u001b[0m\u{1B}[0m plain\\u001b[31m\nown\tlayout value\\u0009with\\u000abreaks\n")
        #expect(captured.error == "\u{1B}[31merror:\u{1B}[0m bad \\u009b2J\n\u{1B}[33mwarning:\u{1B}[0m tab\tand line\nstay\n")
    }

    @Test func aHugeValueFullOfControlCharactersIsEscapedInOnePass() {
        // A diagnostic may quote a 300,000-character value; escaping it once took minutes.
        let captured = CapturedConsole(colors: false)
        let started = ContinuousClock.now
        captured.console.error("\(String(repeating: "\u{1B}\u{9B}x", count: 300_000))")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(captured.error.utf8.count == "error: \n".utf8.count + 300_000 * 13)
    }

    @Test func withoutColoursNothingButLineFeedsAndTabsIsAControlCharacter() {
        let captured = CapturedConsole(colors: false)
        let console = captured.console
        for character in Self.controls {
            console.line("\(console.paint("a\(character)", .red))\(String(character))")
            console.error("\(character)")
            console.out(String(character))
        }
        #expect(Self.liveControls(captured.output + captured.error).isEmpty)
        #expect(!captured.output.contains("\u{1B}["))
    }
}

/// A console that keeps what it printed.
final class CapturedConsole: Sendable {
    private let printed = Mutex<(output: String, error: String)>(("", ""))
    private let colors: Bool

    init(colors: Bool) {
        self.colors = colors
    }

    /// A console printing into this one's buffers.
    var console: Console {
        Console(colorsOnOutput: colors, colorsOnError: colors) { [self] stream, text in
            printed.withLock { stream == .output ? ($0.output += text) : ($0.error += text) }
        }
    }

    var output: String { printed.withLock { $0.output } }
    var error: String { printed.withLock { $0.error } }
}
