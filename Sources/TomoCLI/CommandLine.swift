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
        CompletionCommand.spec,
        HelpCommand.spec,
    ]

    public static func run(
        _ arguments: [String],
        console: Console = .standard(),
        workingDirectory: URL = WorkingDirectory.current
    ) -> Int32 {
        console.exitStatus(after: status(of: arguments, console: console, workingDirectory: workingDirectory))
    }

    /// `run` for the process's own arguments as the kernel gave them (`argv`, `argc` of them,
    /// the program's name first): one that is not UTF-8 text is wrong usage. Swift's
    /// `CommandLine.arguments` replaces bad bytes with U+FFFD, which a profile or a post would
    /// then keep.
    public static func run(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, console: Console = .standard()) -> Int32 {
        var arguments: [String] = []
        for index in 1..<max(1, Int(argc)) {
            guard let pointer = argv[index] else { continue }
            guard let argument = String(validatingCString: pointer) else {
                // Shown with U+FFFD for each byte that is not UTF-8 (`String(cString:)` repairs).
                console.error("argument \(index) is not UTF-8 text (\(String(cString: pointer).quotedShortened()), with � for what is not): write it in UTF-8")
                return console.exitStatus(after: 2)
            }
            arguments.append(argument)
        }
        return run(arguments, console: console)
    }

    private static func status(of arguments: [String], console: Console, workingDirectory: URL) -> Int32 {
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
            // A Foundation file error, by the system's reason behind it.
            console.error(Diagnostic.reason(of: error))
            return 1
        }
    }

    static func report(_ diagnostic: Diagnostic, on console: Console) {
        switch diagnostic.severity {
        case .error: console.error(diagnostic.description)
        case .warning: console.warning(diagnostic.description)
        }
    }

    /// `--site`, `--help` and `--version`: the options that stand before the command.
    static let siteOption = OptionSpec("site", short: "s", value: "DIR", "the site folder (default: the nearest folder with content/site.yaml)", kind: .directory)
    static let helpOption = OptionSpec.flag("help", short: "h", "show help; `tomo COMMAND --help` explains one command")
    static let versionOption = OptionSpec.flag("version", short: "V", "print the version")
    static let globalOptions = [siteOption, versionOption, helpOption]
    /// The options every command takes besides its own.
    static let commonOptions = [siteOption, helpOption]

    /// Parses the arguments; nil when the request was already answered (`--help`, `--version`).
    static func parse(_ arguments: [String], console: Console, workingDirectory: URL) throws -> Invocation? {
        var rest = arguments[...]
        var given = GivenOptions()
        // Global options may stand before the command.
        while let word = rest.first, isOption(word) {
            rest = rest.dropFirst()
            try given.read(word, rest: &rest, from: globalOptions, command: nil)
        }
        if given.flags.contains(versionOption.name) {
            console.line("tomo \(version)")
            return nil
        }
        let words = Array(rest)
        guard !words.isEmpty else {
            console.out(HelpCommand.overview())
            return nil
        }
        let command: CommandSpec
        switch try resolve(words) {
        case .group(let group):
            // `tomo user --help` and `tomo --help user` explain the group; `tomo user` lists it.
            if given.flags.contains(helpOption.name) || words.contains(where: { helpOption.isNamed(by: $0) }) {
                console.out(HelpCommand.help(forGroup: group))
                return nil
            }
            // The list ends with a line break, which the error line adds itself.
            throw UsageError("`tomo \(group)` needs a subcommand:\n" + HelpCommand.subcommandList(group).dropLast(), usage: HelpCommand.groupUsage(group))
        case .command(let found, let consumed):
            command = found
            rest = words[consumed...]
        }
        if given.flags.contains(helpOption.name) {
            console.out(HelpCommand.help(for: command))
            return nil
        }

        var positional: [String] = []
        var onlyPositional = false
        let options = command.options + commonOptions
        while let word = rest.first {
            rest = rest.dropFirst()
            if onlyPositional || !isOption(word) {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            try given.read(word, rest: &rest, from: options, command: command)
            if given.flags.contains(helpOption.name) {
                console.out(HelpCommand.help(for: command))
                return nil
            }
        }

        // Every value is checked against its kind, in the order they were typed, before any
        // command runs: a bad value is wrong usage, whatever the site or the store holds.
        for name in given.order {
            guard let option = options.first(where: { $0.name == name }), let value = given.values[name] else { continue }
            if option.kind.isBlank?(value) == true {
                // `--reason ""` is no reason: said as for no --reason at all.
                throw UsageError(option.isRequired ? missing(option) : needsValue(option), usage: command.usage)
            }
            if let problem = option.kind.check(value, label: option.long) {
                throw UsageError(problem, usage: command.usage)
            }
        }
        for option in options where option.isRequired && given.values[option.name] == nil {
            throw UsageError(missing(option), usage: command.usage)
        }
        let required = command.arguments.filter { !$0.isOptional }.count
        if positional.count < required {
            let missing = command.arguments[positional.count]
            throw UsageError("missing \(missing.name): \(missing.help)", usage: command.usage)
        }
        if command.arguments.last?.repeats != true, positional.count > command.arguments.count {
            throw UsageError("unexpected argument \"\(positional[command.arguments.count])\"", usage: command.usage)
        }
        for (index, value) in positional.enumerated() {
            let argument = command.arguments[min(index, command.arguments.count - 1)]
            if let problem = argument.kind.check(value, label: argument.name) {
                throw UsageError(problem, usage: command.usage)
            }
        }

        var values = given.values
        let siteOption = values.removeValue(forKey: Self.siteOption.name)
        return Invocation(
            command: command,
            arguments: positional,
            options: values,
            flags: given.flags,
            siteOption: siteOption,
            console: console,
            workingDirectory: workingDirectory
        )
    }

    /// `-o`, `--out`, `--out=DIR`; not `-` (standard input) and not a plain word.
    static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-"
    }

    static func missing(_ option: OptionSpec) -> String {
        "missing \(option.long) \(option.valueName ?? ""): \(option.help)"
    }

    static func needsValue(_ option: OptionSpec) -> String {
        "\(option.long) needs a value: \(option.long) \(option.valueName ?? "")"
    }

    /// What the leading words name: a command (and how many words name it) or a group of
    /// subcommands (`user`) without one of them.
    enum Resolved {
        case command(CommandSpec, consumed: Int)
        case group(String)
    }

    /// Finds the longest command path that the leading words name; "did you mean" otherwise.
    static func resolve(_ words: [String]) throws -> Resolved {
        for length in stride(from: min(words.count, 2), through: 1, by: -1) {
            let path = Array(words.prefix(length))
            if let command = commands.first(where: { $0.path == path }) {
                return .command(command, consumed: length)
            }
        }
        let first = words[0]
        let subcommands = HelpCommand.subcommands(of: first)
        if !subcommands.isEmpty {
            if words.count > 1, !isOption(words[1]) {
                let hint = Suggestion.hint(for: words[1], in: subcommands.map { $0.path[1] })
                throw UsageError("unknown command `tomo \(first) \(words[1])`\(hint); `tomo \(first)` takes:\n" + HelpCommand.subcommandList(first).dropLast())
            }
            return .group(first)
        }
        let hint = Suggestion.hint(for: first, in: Set(commands.map { $0.path[0] }))
        throw UsageError("unknown command `\(first)`\(hint); run `tomo help` for the list")
    }
}

/// The options and flags read so far from one command line.
struct GivenOptions {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    /// The names of the options, in the order they were typed.
    var order: [String] = []

    /// Reads the option `word` (and its value, from `rest` unless written `--name=VALUE`).
    mutating func read(_ word: String, rest: inout ArraySlice<String>, from options: [OptionSpec], command: CommandSpec?) throws {
        let usage = command?.usage
        var written = word
        var inlineValue: String?
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            written = String(word[..<equals])
            inlineValue = String(word[word.index(after: equals)...])
        }
        guard let option = options.first(where: { $0.isNamed(by: written) }) else {
            let place = command.map { " for `tomo \($0.name)`" } ?? ""
            // A one-letter option has no likely typo: -o and -p are both one key from -i.
            let hint = written.count <= 2 ? "" : Suggestion.hint(for: written, in: options.map(\.long))
            throw UsageError("unknown option \(written)\(place)\(hint)", usage: usage)
        }
        if values[option.name] != nil || flags.contains(option.name) {
            // Never the last one silently: which of two captions was meant?
            throw UsageError("\(option.long) is given twice: give it once", usage: usage)
        }
        order.append(option.name)
        guard option.valueName != nil else {
            if inlineValue != nil { throw UsageError("\(option.long) takes no value", usage: usage) }
            flags.insert(option.name)
            return
        }
        if let inlineValue {
            values[option.name] = inlineValue
        } else if let value = rest.first {
            values[option.name] = value
            rest = rest.dropFirst()
        } else {
            throw UsageError(TomoCommandLine.needsValue(option), usage: usage)
        }
    }
}

extension OptionSpec {
    /// Whether `word` (`--out` or `-o`) names this option.
    func isNamed(by word: String) -> Bool {
        spellings.contains(word)
    }
}
