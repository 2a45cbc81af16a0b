import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// One rule for values: a bad value of a known option or argument is wrong usage (exit status
/// 2) with a message naming it, checked before any command runs (so also where no site is).
@Suite struct OptionValueTests {
    /// Values each kind refuses. A kind missing here fails `everyKindHasBadValues`.
    static let badValues: [String: [String]] = [
        "text": ["a\u{1}b"],
        "some text": ["", "   ", "\u{2028}", "x\u{7F}"],
        "display name": ["", " \t", "x\u{1B}"],
        "port": ["abc", "0", "65536", "-1"],
        "listen address": ["example.com", "::1x", "300.1.1.1"],
        "site address": ["/", "example.com", "https://exa mple.com/"],
        "on or off": ["maybe", "ON "],
        "location": ["91,0", "35.6", "north"],
        "word": ["two words", "", String(repeating: "x", count: 41)],
        "visibility": ["folowers", "Public"],
        "decision": ["maybe"],
        "date": ["tomorrow", "2026-02-30"],
        "slug": ["../x", "-a"],
        "kilometres": ["-1", "far", "inf", "2e9"],
        "count": ["1.5", "-2", "many"],
        "JSON or @FILE": ["{", "[1,]"],
        "shell": ["tcsh"],
        // Control characters only: `tomo theme eject` names every unknown name at once.
        "theme name": ["a\u{1}b"],
        // Handed to the file system as typed: nothing is refused by its form.
        "path": [],
        "directory": [],
    ]

    /// A value each kind takes, for the other arguments and options of a command line.
    static let goodValues: [String: String] = [
        "text": "alice", "some text": "spam", "path": "x", "directory": "d", "decision": "accept",
        "shell": "bash", "JSON or @FILE": "{}",
    ]

    /// Every kind of every option and argument in the command table.
    static var kinds: [ValueKind] {
        TomoCommandLine.commands.flatMap { $0.options.filter { $0.valueName != nil }.map(\.kind) + $0.arguments.map(\.kind) }
            + TomoCommandLine.globalOptions.filter { $0.valueName != nil }.map(\.kind)
    }

    @Test func everyKindHasBadValues() {
        for kind in Self.kinds { #expect(Self.badValues[kind.name] != nil, "kind \"\(kind.name)\": add bad values for it") }
    }

    /// The command's path, its arguments and required options with good values.
    static func words(_ command: CommandSpec, except name: String? = nil) -> [String] {
        var words = command.path
        for argument in command.arguments where !argument.isOptional && argument.name != name {
            words.append(goodValues[argument.kind.name] ?? "alice")
        }
        for option in command.options where option.isRequired && option.name != name {
            words += [option.long, goodValues[option.kind.name] ?? "alice"]
        }
        return words
    }

    @Test(arguments: TomoCommandLine.commands.map(\.path)) func aBadOptionValueIsWrongUsageNamingTheOption(path: [String]) throws {
        let command = try #require(TomoCommandLine.commands.first { $0.path == path })
        let folder = try TemporaryFolder()  // no site: the value is refused before the site is looked for
        for option in command.options + TomoCommandLine.commonOptions where option.valueName != nil {
            for value in Self.badValues[option.kind.name] ?? [] {
                for spelling in [[option.long, value], ["\(option.long)=\(value)"]] {
                    let result = runTomo(Self.words(command, except: option.name) + spelling, in: folder.url)
                    #expect(result.status == 2, "tomo \(command.name) \(spelling): \(result.error)")
                    #expect(result.error.contains(option.long), "tomo \(command.name) \(spelling): \(result.error)")
                    #expect(result.error.contains("usage: \(command.usage)"))
                }
            }
        }
    }

    @Test(arguments: TomoCommandLine.commands.map(\.path)) func aBadArgumentValueIsWrongUsageNamingTheArgument(path: [String]) throws {
        let command = try #require(TomoCommandLine.commands.first { $0.path == path })
        let folder = try TemporaryFolder()
        for (index, argument) in command.arguments.enumerated() {
            for value in Self.badValues[argument.kind.name] ?? [] {
                var words = Self.words(command)
                if index + command.path.count < words.count { words[index + command.path.count] = value } else { words.append(value) }
                let result = runTomo(words, in: folder.url)
                #expect(result.status == 2, "tomo \(words): \(result.error)")
                #expect(result.error.contains(argument.name), "tomo \(words): \(result.error)")
            }
        }
    }

    @Test func theReportedExamplesAreWrongUsageOutsideASiteToo() throws {
        let folder = try TemporaryFolder()
        for words in [["build", "--base-url", "/"], ["serve", "--base-url", "/"], ["serve", "--host", "::1x"], ["serve", "--port", "abc"], ["discover", "alice", "--within", "x"]] {
            let result = runTomo(words, in: folder.url)
            #expect(result.status == 2, "\(words): \(result.error)")
            #expect(result.error.contains(words[words.count - 2]))
        }
    }

    @Test func anEmptyReasonIsAMissingReason() throws {
        let folder = try TemporaryFolder()
        let missing = runTomo(["report", "bob", "alice/sunset"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("error: missing --reason TEXT"))
        for reason in ["", "  ", "\t", "\u{2028}"] {
            let empty = runTomo(["report", "bob", "alice/sunset", "--reason", reason], in: folder.url)
            #expect(empty.status == missing.status)
            #expect(empty.error == missing.error)
        }
    }
}
