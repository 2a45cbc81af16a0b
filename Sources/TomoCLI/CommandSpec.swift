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
            let word = option.valueName.map { "--\(option.name) \($0)" } ?? "--\(option.name)"
            words.append(option.isRequired ? word : "[\(word)]")
        }
        return words.joined(separator: " ")
    }
}

/// What a value on the command line is, for the check every value passes before a command runs.
public enum ValueKind: Sendable {
    /// Text, which may end up in a content file, the store or a page: it may hold no character
    /// `ForbiddenCharacters` refuses, the rule every content file is held to.
    case text
    /// A path, handed to the file system as typed.
    case path
}

public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// Takes every remaining positional argument.
    public var repeats: Bool
    public var kind: ValueKind

    public init(_ name: String, _ help: String, optional: Bool = false, repeats: Bool = false, kind: ValueKind = .text) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.repeats = repeats
        self.kind = kind
    }
}

public struct OptionSpec: Sendable {
    /// Without the leading dashes.
    public var name: String
    /// The placeholder for the value (`DIR`), or nil for a flag.
    public var valueName: String?
    public var help: String
    public var isRequired: Bool
    public var kind: ValueKind

    public init(_ name: String, value: String? = nil, _ help: String, required: Bool = false, kind: ValueKind = .text) {
        self.name = name
        self.valueName = value
        self.help = help
        self.isRequired = required
        self.kind = kind
    }

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name, help)
    }
}
