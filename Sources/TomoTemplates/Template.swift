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
        (nodes, references) = try Parser(source: source, file: name).parse()
    }

    /// Every partial and parent tag with a fixed name, with its place in the source, so a check
    /// can point at a tag whose template does not exist.
    public let references: [TemplateReferenceSite]
}

/// A partial or parent tag naming another template.
public struct TemplateReferenceSite: Sendable, Hashable {
    public let name: String
    public let location: SourceLocation
}
