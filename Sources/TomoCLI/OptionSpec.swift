/// An option (`--name VALUE`) or flag (`--name`) of a command, as `--help`, completions and the
/// parser read it.
public struct OptionSpec: Sendable {
    /// Without the leading dashes.
    public var name: String
    /// The one-letter form (`o` for `-o`), for the few options typed most.
    public var short: Character?
    /// The placeholder for the value (`DIR`), or nil for a flag.
    public var valueName: String?
    public var help: String
    public var isRequired: Bool
    public var kind: ValueKind

    public init(_ name: String, short: Character? = nil, value: String? = nil, _ help: String, required: Bool = false, kind: ValueKind = .text) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.isRequired = required
        self.kind = kind
    }

    /// An option whose value a command reads as a `Value` (`invocation.value(name, type)`).
    init<Value>(_ name: String, short: Character? = nil, value: String, _ help: String, required: Bool = false, type: ValueType<Value>) {
        self.init(name, short: short, value: value, help, required: required, kind: type.kind)
    }

    public static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name, short: short, help)
    }

    /// `--out`
    public var long: String { "--" + name }

    /// Every way to write it: `--out`, `-o`.
    public var spellings: [String] { [long] + (short.map { ["-\($0)"] } ?? []) }

    /// `-o, --out DIR` as help lists it; `    --full` without a short form.
    public var label: String {
        let forms = (short.map { "-\($0), " } ?? "    ") + long
        return valueName.map { "\(forms) \($0)" } ?? forms
    }
}
