import TomoCore

/// A name as written in a tag: `.`, `name`, `a.b.c`, or `.name` (resolved in the top context only).
struct Name: Sendable, Hashable {
    /// The dotted parts; empty for the implicit iterator `.`.
    var parts: [String]
    /// `.name`: look only at the top of the context stack.
    var topOnly: Bool

    init(parsing text: String) {
        if text == "." {
            parts = []
            topOnly = true
        } else if text.hasPrefix(".") {
            parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            topOnly = true
        } else {
            parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            topOnly = false
        }
    }
}

/// Which template a partial or parent tag names: fixed, or read from the context (`{{>*name}}`).
enum TemplateReference: Sendable {
    case fixed(String)
    case dynamic(Name)
}

/// A block's content as an argument passed into a parent, with its own indentation removed so it
/// can take the indentation of the place it lands.
struct BlockArgument: Sendable {
    var nodes: [Node]
}

/// The compiled form of a template: rendering walks these and never looks at source text.
/// Tags that render other nodes keep where they are written, for errors found while rendering.
indirect enum Node: Sendable {
    case text([UInt8])
    case variable(Name, escaped: Bool)
    case section(Name, [Node], at: SourceLocation)
    case invertedSection(Name, [Node], at: SourceLocation)
    /// `indentation` is non-empty only for a standalone tag: it prefixes every line of the partial.
    case partial(TemplateReference, indentation: [UInt8], at: SourceLocation)
    case parent(TemplateReference, indentation: [UInt8], arguments: [String: BlockArgument], at: SourceLocation)
    /// A parameter of this template: `content` renders unless a caller passed an argument, which
    /// is then indented by `indentation` (the block's own indentation here). `isStandalone` says
    /// whether the content starts on a line of its own.
    case block(String, content: [Node], indentation: [UInt8], isStandalone: Bool)
}
