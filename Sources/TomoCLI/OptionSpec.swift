/// An option (`--name VALUE`) or flag (`--name`) of a command, as `--help` and the parser read it.
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
