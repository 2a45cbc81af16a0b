import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// Every command path and every group of subcommands explains itself.
@Suite struct CommandHelpTests {
    static let groups = HelpCommand.groups

    @Test func theTableHasGroups() {
        #expect(Self.groups.contains("user") && Self.groups.contains("post"))
    }

    @Test(arguments: groups) func aGroupsHelpListsItsSubcommandsAndExitsZero(group: String) {
        let subcommands = HelpCommand.subcommands(of: group)
        for words in [[group, "--help"], [group, "-h"], ["help", group], ["--help", group]] {
            let result = runTomo(words)
            #expect(result.status == 0, "tomo \(words.joined(separator: " "))")
            #expect(result.error.isEmpty)
            #expect(result.output.contains("Usage: tomo \(group) SUBCOMMAND"))
            for command in subcommands {
                #expect(result.output.contains("  \(command.path[1])"), "tomo \(words.joined(separator: " "))")
                #expect(result.output.contains(command.summary))
            }
        }
    }

    @Test(arguments: groups) func aGroupAloneSaysWhichSubcommandsExist(group: String) {
        let result = runTomo([group])
        #expect(result.status == 2)
        #expect(result.error.contains("`tomo \(group)` needs a subcommand"))
        for command in HelpCommand.subcommands(of: group) {
            #expect(result.error.contains("\(command.path[1])  "), "\(command.name)")
            #expect(result.error.contains(command.summary))
        }
    }

    @Test(arguments: TomoCommandLine.commands.map(\.path)) func everyCommandPathHasHelp(path: [String]) throws {
        let command = try #require(TomoCommandLine.commands.first { $0.path == path })
        for words in [path + ["--help"], path + ["-h"], ["help"] + path, ["--help"] + path] {
            let result = runTomo(words)
            #expect(result.status == 0, "tomo \(words.joined(separator: " "))")
            #expect(result.output.contains("Usage: \(command.usage)"))
        }
    }

    @Test func helpAndNoArgumentsListEveryCommandAndGroup() {
        let overview = runTomo(["help"])
        #expect(overview.status == 0)
        for command in TomoCommandLine.commands { #expect(overview.output.contains("  \(command.name)")) }
        for group in Self.groups { #expect(overview.output.contains(group)) }
        #expect(runTomo([]).output == overview.output)
        #expect(runTomo(["--help"]).output == overview.output)
        #expect(runTomo(["-h"]).output == overview.output)
    }

    @Test func anUnknownSubcommandListsTheGroup() {
        let result = runTomo(["user", "ad"])
        #expect(result.status == 2)
        #expect(result.error.contains("(did you mean \"add\"?)"))
        #expect(result.error.contains("rename  Change a user's handle everywhere"))
    }
}
