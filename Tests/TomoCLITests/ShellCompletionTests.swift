import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// The scripts of `tomo completion`, run by the shells themselves: bash through its completion
/// function, zsh through the same function with zsh's completion builtins stood in for, fish
/// through `complete -C`.
@Suite struct ShellCompletionTests {
    /// A folder with the script for `shell`, a photo, a text file and a subfolder to complete.
    static func folder(_ shell: ShellCompletion.Shell) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let result = runTomo(["completion", shell.rawValue])
        #expect(result.status == 0)
        try folder.write("tomo.\(shell.rawValue)", result.output)
        try folder.write("photo.jpg", "")
        try folder.write("notes.txt", "")
        try folder.write("pictures/a.txt", "")
        return folder
    }

    static func shellPath(_ name: String) -> URL? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What bash completes for the line `words` (the last word is the one being typed).
    static func bash(_ words: [String], in folder: TemporaryFolder) throws -> [String] {
        let quoted = words.map(ShellCompletion.shellQuote).joined(separator: " ")
        let script = "source ./tomo.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _tomo; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c", script], in: folder.url)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init).sorted()
    }

    /// The lines a bash user sees, and what each shell must offer for them.
    static let cases: [(line: [String], expected: [String])] = [
        (["tomo", "bu"], ["build"]),
        (["tomo", "--site", "s", "bu"], ["build"]),
        (["tomo", "-s", "s", "ser"], ["serve"]),
        (["tomo", "us"], ["user"]),
        (["tomo", "user", ""], ["add", "list", "rename", "rm", "set", "show"]),
        (["tomo", "post", "h"], ["hide"]),
        (["tomo", "build", "--o"], ["--out"]),
        (["tomo", "post", "add", "alice", "photo.jpg", "--visibility", "f"], ["followers"]),
        (["tomo", "user", "set", "alice", "--approve-follows", ""], ["off", "on"]),
        (["tomo", "pick", "alice", "bob", ""], ["accept", "reject"]),
        (["tomo", "completion", "z"], ["zsh"]),
        (["tomo", "theme", "eject", "static/sty"], ["static/style.css"]),
        (["tomo", "the"], ["theme"]),
        (["tomo", "post", "add", "alice", "ph"], ["photo.jpg"]),
        (["tomo", "build", "-o", "p"], ["pictures"]),
        (["tomo", "build", "--out", ""], ["pictures"]),
        (["tomo", "serve", "--port", ""], []),
    ]

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let folder = try Self.folder(.bash)
        for (line, expected) in Self.cases {
            #expect(try Self.bash(line, in: folder) == expected, "\(line)")
        }
    }

    @Test func bashCompletesEveryOptionOfEveryCommandLongAndShort() throws {
        let folder = try Self.folder(.bash)
        for command in TomoCommandLine.commands {
            let offered = Set(try Self.bash(["tomo"] + command.path + ["-"], in: folder))
            for option in command.options + TomoCommandLine.commonOptions {
                #expect(offered.contains(option.long), "tomo \(command.name) \(option.long)")
                if let short = option.short { #expect(offered.contains("-\(short)"), "tomo \(command.name) -\(short)") }
            }
        }
        for group in HelpCommand.groups {
            let offered = try Self.bash(["tomo", group, ""], in: folder)
            #expect(offered == HelpCommand.subcommands(of: group).map { $0.path[1] }.sorted())
        }
    }

    @Test func noOptionTakesAValueInOneCommandAndNoneInAnother() {
        let options = TomoCommandLine.commands.flatMap(\.options) + TomoCommandLine.globalOptions
        let spellings = ShellCompletion.Table(commands: TomoCommandLine.commands).valueSpellings
        for option in options where option.valueName == nil {
            #expect(!spellings.contains(option.long), "\(option.long)")
            if let short = option.short { #expect(!spellings.contains("-\(short)")) }
        }
    }

    @Test func zshCompletesThroughTheSameDecisions() throws {
        let zsh = try #require(Self.shellPath("zsh"), "zsh is not installed: `make test-deps` installs it")
        let folder = try Self.folder(.zsh)
        #expect(try runProcess(zsh, ["-n", "tomo.zsh"], in: folder.url).status == 0)
        for (line, expected) in Self.cases {
            // compadd, _files and compdef stand in for the completion system outside a prompt.
            let words = line.map(ShellCompletion.shellQuote).joined(separator: " ")
            let script = """
            compdef() { :; }; compadd() { [ "$1" = -- ] && shift; print -l -- "$@"; }; _files() { if [ "$1" = -/ ]; then print -l -- *(/N); else print -l -- *(N); fi; }
            source ./tomo.zsh; words=(\(words)); CURRENT=\(line.count); _tomo
            """
            let result = try runProcess(zsh, ["-f", "-c", script], in: folder.url)
            let offered = result.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(line.last ?? "") }.sorted()
            #expect(offered == expected, "\(line): \(result.error)")
        }
    }

    @Test func fishCompletesCommandsOptionsAndValues() throws {
        let fish = try #require(Self.shellPath("fish"), "fish is not installed: `make test-deps` installs it")
        let folder = try Self.folder(.fish)
        for (line, expected) in Self.cases {
            let typed = line.joined(separator: " ")
            let result = try runProcess(fish, ["--no-config", "-c", "source ./tomo.fish; complete -C \(ShellCompletion.fishQuote(typed))"], in: folder.url)
            #expect(result.error.isEmpty, "\(line): \(result.error)")
            let offered = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            let trimmed = offered.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.sorted()
            #expect(trimmed == expected, "\(line)")
        }
        let described = try runProcess(fish, ["--no-config", "-c", "source ./tomo.fish; complete -C 'tomo build --'"], in: folder.url)
        #expect(described.output.contains("--out\twrite the site here instead of public/"))
    }
}
