import TomoCore

/// A Mustache template (spec v1.4 with comments, delimiters, inheritance and dynamic names;
/// no lambdas), parsed once into nodes and rendered many times.
public struct Template: Sendable {
    /// The name partials use for it, and the file errors point at.
    public let name: String
    let nodes: [Node]

    /// Compiles `source`; a syntax error comes back with `name`, line and column.
    public init(source: String, name: String) throws(Diagnostic) {
        self.name = name
        self.nodes = try Parser(source: source, file: name).parse()
    }

    /// Names of the partials and parents this template refers to by a fixed name, for checks.
    public var referencedTemplates: Set<String> {
        var names: Set<String> = []
        func collect(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .section(_, let children), .invertedSection(_, let children):
                    collect(children)
                case .block(_, let content, _, _):
                    collect(content)
                case .partial(.fixed(let name), _):
                    names.insert(name)
                case .parent(let reference, _, let arguments):
                    if case .fixed(let name) = reference { names.insert(name) }
                    for argument in arguments.values { collect(argument.nodes) }
                default:
                    break
                }
            }
        }
        collect(nodes)
        return names
    }
}
