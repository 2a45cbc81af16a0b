/// A positional argument of a command, as `--help`, completions and the parser read it.
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

    /// An argument a command reads as a `Value` (`invocation.argument(index, type)`).
    init<Value>(_ name: String, _ help: String, optional: Bool = false, type: ValueType<Value>) {
        self.init(name, help, optional: optional, kind: type.kind)
    }
}
