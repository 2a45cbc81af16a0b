import Foundation
import TomoCore

/// The `tomo` program: parses the arguments against the command table, runs the command and
/// turns its outcome into an exit status (0 success, 1 a problem with input or store, 2 wrong usage).
public enum TomoCommandLine {
    public static let version = "0.1.0"

    /// Every command, in the order `tomo help` lists them.
    public static let commands: [CommandSpec] = [
        InitCommand.spec,
        BuildCommand.spec,
        ServeCommand.spec,
        CheckCommand.spec,
        SchemaCommand.spec,
        UserCommands.add,
        UserCommands.list,
        UserCommands.show,
        UserCommands.set,
        UserCommands.remove,
        UserCommands.rename,
        StoreCommands.follow,
        StoreCommands.unfollow,
        StoreCommands.accept,
        StoreCommands.decline,
        StoreCommands.requests,
        StoreCommands.block,
        StoreCommands.unblock,
        PostRelationCommands.like,
        PostRelationCommands.unlike,
        PostRelationCommands.report,
        PostRelationCommands.reports,
        PostCommands.add,
        PostCommands.list,
        PostCommands.remove,
        PostRelationCommands.hide,
        PostRelationCommands.unhide,
        DatingCommands.pick,
        DatingCommands.matches,
        DatingCommands.discover,
        BatchCommand.spec,
        TemplateCommands.render,
        ThemeCommands.eject,
        HelpCommand.spec,
    ]

    public static func run(
        _ arguments: [String],
        console: Console = .standard(),
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> Int32 {
        do {
            guard let invocation = try parse(arguments, console: console, workingDirectory: workingDirectory) else {
                return 0
            }
            return try invocation.command.run(invocation)
        } catch let error as UsageError {
            console.error(error.message)
            if let usage = error.usage { console.errorLine("usage: \(usage)") }
            return 2
        } catch let error as DiagnosticList {
            for diagnostic in error.diagnostics { report(diagnostic, on: console) }
            return 1
        } catch let error as Diagnostic {
            report(error, on: console)
            return 1
        } catch {
            console.error("\(error)")
            return 1
        }
    }

    static func report(_ diagnostic: Diagnostic, on console: Console) {
        switch diagnostic.severity {
        case .error: console.error(diagnostic.description)
        case .warning: console.warning(diagnostic.description)
        }
    }

    /// Parses the arguments; nil when the request was already answered (`--help`, `--version`).
    static func parse(_ arguments: [String], console: Console, workingDirectory: URL) throws -> Invocation? {
        var remaining = arguments[...]
        var siteOption: String?

        // Global options may stand before the command.
        var words: [String] = []
        while let argument = remaining.first {
            remaining = remaining.dropFirst()
            if argument == "--site" || argument.hasPrefix("--site=") {
                if siteOption != nil { throw UsageError("--site is given twice: give it once") }
                if argument == "--site" {
                    guard let value = remaining.first else { throw UsageError("--site needs a folder: --site DIR") }
                    siteOption = value
                    remaining = remaining.dropFirst()
                } else {
                    siteOption = String(argument.dropFirst("--site=".count))
                }
            } else {
                words.append(argument)
            }
        }

        guard let first = words.first else {
            console.out(HelpCommand.overview())
            return nil
        }
        if first == "--version" || first == "-V" {
            console.line("tomo \(version)")
            return nil
        }
        if first == "--help" || first == "-h" {
            console.out(HelpCommand.overview())
            return nil
        }

        let (command, consumed) = try resolveCommand(words)
        var rest = words[consumed...]
        var positional: [String] = []
        var options: [String: String] = [:]
        var flags: Set<String> = []
        var onlyPositional = false

        while let word = rest.first {
            rest = rest.dropFirst()
            if onlyPositional || !word.hasPrefix("-") || word == "-" {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            if word == "--help" || word == "-h" {
                console.out(HelpCommand.help(for: command))
                return nil
            }
            var name = String(word.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                let hint = Suggestion.hint(for: name, in: command.options.map(\.name) + ["help", "site"])
                throw UsageError("unknown option --\(name) for `tomo \(command.name)`\(hint)", usage: command.usage)
            }
            if options[name] != nil || flags.contains(name) {
                // Never the last one silently: which of two captions was meant?
                throw UsageError("--\(name) is given twice: give it once", usage: command.usage)
            }
            if let valueName = option.valueName {
                if let inlineValue {
                    options[name] = inlineValue
                } else if let value = rest.first {
                    options[name] = value
                    rest = rest.dropFirst()
                } else {
                    throw UsageError("--\(name) needs a value: --\(name) \(valueName)", usage: command.usage)
                }
            } else {
                if inlineValue != nil { throw UsageError("--\(name) takes no value", usage: command.usage) }
                flags.insert(name)
            }
        }

        for option in command.options where option.isRequired && options[option.name] == nil {
            throw UsageError("missing --\(option.name) \(option.valueName ?? "")", usage: command.usage)
        }
        let required = command.arguments.filter { !$0.isOptional }.count
        if positional.count < required {
            let missing = command.arguments[positional.count]
            throw UsageError("missing \(missing.name): \(missing.help)", usage: command.usage)
        }
        if command.arguments.last?.repeats != true, positional.count > command.arguments.count {
            throw UsageError("unexpected argument \"\(positional[command.arguments.count])\"", usage: command.usage)
        }
        // Text from the command line is held to the content files' rule before any command
        // sees it, so no command writes a caption, a reason or a setting `tomo check` refuses.
        for option in command.options where option.kind == .text {
            if let value = options[option.name], let problem = ForbiddenCharacters.problem(in: value, named: "--\(option.name)") {
                throw UsageError(problem, usage: command.usage)
            }
        }
        for (index, value) in positional.enumerated() {
            let argument = command.arguments[min(index, command.arguments.count - 1)]
            if argument.kind == .text, let problem = ForbiddenCharacters.problem(in: value, named: argument.name) {
                throw UsageError(problem, usage: command.usage)
            }
        }

        return Invocation(
            command: command,
            arguments: positional,
            options: options,
            flags: flags,
            siteOption: siteOption,
            console: console,
            workingDirectory: workingDirectory
        )
    }

    /// Finds the longest command path that the leading words name; "did you mean" otherwise.
    static func resolveCommand(_ words: [String]) throws -> (CommandSpec, Int) {
        for length in stride(from: min(words.count, 2), through: 1, by: -1) {
            let path = Array(words.prefix(length))
            if let command = commands.first(where: { $0.path == path }) {
                return (command, length)
            }
        }
        let first = words[0]
        let groups = commands.filter { $0.path.count > 1 && $0.path[0] == first }
        if !groups.isEmpty {
            let subcommands = groups.map { $0.path[1] }
            if words.count > 1, !words[1].hasPrefix("-") {
                let hint = Suggestion.hint(for: words[1], in: subcommands)
                throw UsageError("unknown command `tomo \(first) \(words[1])`\(hint); `tomo \(first)` takes: \(subcommands.joined(separator: ", "))")
            }
            throw UsageError("`tomo \(first)` needs a subcommand: \(subcommands.joined(separator: ", "))")
        }
        let hint = Suggestion.hint(for: first, in: Set(commands.map { $0.path[0] }))
        throw UsageError("unknown command `\(first)`\(hint); run `tomo help` for the list")
    }
}
