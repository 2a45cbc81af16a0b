/// `tomo help [COMMAND]` and the text of every `--help`.
enum HelpCommand {
    static let spec = CommandSpec(
        path: ["help"],
        summary: "Show the commands, or one command's options",
        arguments: [ArgumentSpec("COMMAND", "the command to explain", optional: true, repeats: true)],
        run: { invocation in
            guard !invocation.arguments.isEmpty else {
                invocation.console.out(overview())
                return 0
            }
            let (command, _) = try TomoCommandLine.resolveCommand(invocation.arguments)
            invocation.console.out(help(for: command))
            return 0
        }
    )

    static func overview() -> String {
        let width = TomoCommandLine.commands.map(\.name.count).max() ?? 0
        var text = """
        tomo \(TomoCommandLine.version): a static-site generator for profile pages

        Usage: tomo [--site DIR] COMMAND [ARGUMENTS] [OPTIONS]

        Commands:

        """
        for command in TomoCommandLine.commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.summary + "\n"
        }
        text += """

        Global options:
          --site DIR   the site folder (default: the nearest folder with content/site.yaml)
          --version    print the version
          --help       show help; `tomo COMMAND --help` explains one command

        Exit status: 0 success, 1 a problem with the input or the store, 2 wrong usage.

        """
        return text
    }

    static func help(for command: CommandSpec) -> String {
        var text = "\(command.summary)\n\nUsage: \(command.usage)\n"
        if !command.arguments.isEmpty {
            text += "\nArguments:\n"
            let width = command.arguments.map(\.name.count).max() ?? 0
            for argument in command.arguments {
                text += "  " + argument.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + argument.help + "\n"
            }
        }
        let options = command.options + [OptionSpec("site", value: "DIR", "the site folder"), .flag("help", "show this help")]
        let labels = options.map { option in option.valueName.map { "--\(option.name) \($0)" } ?? "--\(option.name)" }
        let width = labels.map(\.count).max() ?? 0
        text += "\nOptions:\n"
        for (label, option) in zip(labels, options) {
            text += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help + "\n"
        }
        if !command.discussion.isEmpty {
            text += "\n" + command.discussion + "\n"
        }
        return text
    }
}
