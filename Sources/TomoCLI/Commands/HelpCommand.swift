/// `tomo help [COMMAND]` and the text of every `--help`.
enum HelpCommand {
    static let spec = CommandSpec(
        path: ["help"],
        summary: "Show the commands, or one command's options",
        arguments: [ArgumentSpec("COMMAND", "the command or group of commands to explain", optional: true, repeats: true)],
        run: { invocation in
            guard !invocation.arguments.isEmpty else {
                invocation.console.out(overview())
                return 0
            }
            switch try TomoCommandLine.resolve(invocation.arguments) {
            case .command(let command, _): invocation.console.out(help(for: command))
            case .group(let group): invocation.console.out(help(forGroup: group))
            }
            return 0
        }
    )

    static func overview() -> String {
        var text = """
        tomo \(TomoCommandLine.version): a static-site generator for profile pages

        Usage: tomo [--site DIR] COMMAND [ARGUMENTS] [OPTIONS]

        Commands:

        """
        text += table(TomoCommandLine.commands.map { ($0.name, $0.summary) })
        text += """

        Global options:

        """
        text += table(TomoCommandLine.globalOptions.map { ($0.label, $0.help) })
        text += """

        `tomo GROUP --help` lists a group's subcommands (\(groups.joined(separator: ", "))).
        `tomo completion bash|zsh|fish` prints a shell completion script.
        Exit status: 0 success, 1 a problem with the input or the store, 2 wrong usage.

        """
        return text
    }

    static func help(for command: CommandSpec) -> String {
        var text = "\(command.summary)\n\nUsage: \(command.usage)\n"
        if !command.arguments.isEmpty {
            text += "\nArguments:\n" + table(command.arguments.map { ($0.name, $0.help) })
        }
        let options = command.options + TomoCommandLine.commonOptions
        text += "\nOptions:\n" + table(options.map { ($0.label, $0.help) })
        if !command.discussion.isEmpty {
            text += "\n" + command.discussion + "\n"
        }
        return text
    }

    /// `tomo user --help`: the group's subcommands, one line each.
    static func help(forGroup group: String) -> String {
        "Usage: \(groupUsage(group))\n\nSubcommands:\n" + subcommandList(group)
            + "\n`tomo \(group) SUBCOMMAND --help` explains one of them.\n"
    }

    static func groupUsage(_ group: String) -> String {
        "tomo \(group) SUBCOMMAND [ARGUMENTS] [OPTIONS]"
    }

    static func subcommands(of group: String) -> [CommandSpec] { TomoCommandLine.commands.subcommands(of: group) }

    static var groups: [String] { TomoCommandLine.commands.groups }

    /// `  add   Register a user …` for each subcommand of `group`.
    static func subcommandList(_ group: String) -> String {
        table(subcommands(of: group).map { ($0.path.dropFirst().joined(separator: " "), $0.summary) })
    }

    /// Two columns, the first padded to its longest entry.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }.joined()
    }
}
