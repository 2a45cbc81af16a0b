/// One command of the CLI, described as data: the parser, `--help` and "did you mean" all read
/// this table, so adding a command is adding one value.
public struct CommandSpec: Sendable {
    /// The words that name it, e.g. `["template", "render"]`.
    public var path: [String]
    /// One line for the command list.
    public var summary: String
    /// Positional arguments, in order.
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Extra paragraphs for `--help` (examples, rules).
    public var discussion: String
    public var run: @Sendable (Invocation) throws -> Int32

    public init(
        path: [String],
        summary: String,
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        discussion: String = "",
        run: @escaping @Sendable (Invocation) throws -> Int32
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
        self.run = run
    }

    public var name: String { path.joined(separator: " ") }

    /// `tomo template render FILE --data JSON [--partials DIR]`
    public var usage: String {
        var words = ["tomo"] + path
        for argument in arguments {
            var word = argument.name
            if argument.repeats { word += "..." }
            words.append(argument.isOptional ? "[\(word)]" : word)
        }
        for option in options {
            let word = option.valueName.map { "\(option.long) \($0)" } ?? option.long
            words.append(option.isRequired ? word : "[\(word)]")
        }
        return words.joined(separator: " ")
    }
}

extension [CommandSpec] {
    /// The first words that name groups of subcommands (`user`, `post`), in table order.
    var groups: [String] {
        var groups: [String] = []
        for command in self where command.path.count > 1 && !groups.contains(command.path[0]) {
            groups.append(command.path[0])
        }
        return groups
    }

    /// The commands whose path starts with `group` and has a second word (`user add`, …).
    func subcommands(of group: String) -> [CommandSpec] {
        filter { $0.path.count > 1 && $0.path[0] == group }
    }
}
