import CYaml
import TomoCore

/// Parses one YAML document into located nodes with libyaml's event API.
///
/// On top of libyaml it rejects what a content file should never contain and libyaml allows:
/// duplicate keys, non-scalar keys, several documents, and anchors/aliases (refused rather than
/// expanded: they are rare in hand-written content and expanding them invites "billion laughs").
public enum YAMLParser {
    /// Deeper nesting is an error, not a stack overflow.
    static let maximumDepth = 200

    /// Parses `bytes` (the whole file); `file` names it in messages.
    public static func parse(_ bytes: [UInt8], file: String) throws(DiagnosticList) -> YAMLNode {
        let (root, problems) = parseReportingAll(bytes, file: file)
        guard let root, problems.isEmpty else { throw DiagnosticList(problems) }
        return root
    }

    /// The tree of `bytes` and every problem found: after a duplicate key or a key that is not
    /// text (left out, the first value kept) the tree is still read, so that a reader can check
    /// its values too and every problem of the file is told at once; no tree after a syntax
    /// error.
    public static func parseReportingAll(_ bytes: [UInt8], file: String) -> (root: YAMLNode?, problems: [Diagnostic]) {
        if let problem = TextChecks.textProblem(in: bytes, file: file, isYAML: true) { return (nil, [problem]) }
        if TextChecks.isBlank(bytes) {
            return (nil, [Diagnostic("the file is empty: write at least one `key: value` line", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        var builder = TreeBuilder(events: EventReader(bytes: bytes, file: file), file: file)
        defer { builder.events.close() }
        do {
            guard let root = try builder.document() else {
                return (nil, builder.problems + [Diagnostic("the file has no YAML document: write at least one `key: value` line", at: SourceLocation(file: file, line: 1, column: 1))])
            }
            return (root, builder.problems)
        } catch {
            return (nil, builder.problems + [error])
        }
    }
}

/// Turns the flat event stream into a tree, collecting problems that do not stop parsing.
private struct TreeBuilder {
    var events: EventReader
    let file: String
    var problems: [Diagnostic] = []

    init(events: EventReader, file: String) {
        self.events = events
        self.file = file
    }

    mutating func document() throws(Diagnostic) -> YAMLNode? {
        guard case .streamStart = try events.next().kind else { throw events.unexpected() }
        let start = try events.next()
        guard case .documentStart = start.kind else { return nil }
        let root = try node(try events.next(), depth: 0)
        guard case .documentEnd = try events.next().kind else { throw events.unexpected() }
        let after = try events.next()
        if case .documentStart = after.kind {
            throw Diagnostic("a second YAML document starts here: a content file holds one document (remove this `---` line or what follows it)", at: after.location)
        }
        return root
    }

    /// A tag is applied only where it says what the value is read as anyway: `!!str` or `!` on
    /// text, `!!map` on a mapping, `!!seq` on a list. Any other (`!!binary`, `!!null`,
    /// `!!python/object`, `!mine`) is refused, not silently dropped: the value would be read
    /// otherwise than the tag says, and than other YAML readers (the schemas' checker) read it.
    static func refuseUnappliedTag(of event: YAMLEvent) throws(Diagnostic) {
        let core = "tag:yaml.org,2002:"
        let (tag, applied): (String?, Set<String>)
        switch event.kind {
        case .scalar(_, _, let scalarTag): (tag, applied) = (scalarTag, [core + "str", "!"])
        case .sequenceStart(let sequenceTag): (tag, applied) = (sequenceTag, [core + "seq"])
        case .mappingStart(let mappingTag): (tag, applied) = (mappingTag, [core + "map"])
        default: return
        }
        guard let tag, !applied.contains(tag) else { return }
        let written = tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag
        throw Diagnostic("the tag \(written) is not supported: remove it (quote a value to keep it as text)", at: event.location)
    }

    mutating func node(_ event: YAMLEvent, depth: Int) throws(Diagnostic) -> YAMLNode {
        guard depth < YAMLParser.maximumDepth else {
            throw Diagnostic("the YAML nests deeper than \(YAMLParser.maximumDepth) levels: write it flatter (no content file needs more than a few)", at: event.location)
        }
        if let anchor = event.anchor {
            throw Diagnostic("anchors (&\(anchor)) are not supported: write the value out in full", at: event.location)
        }
        try Self.refuseUnappliedTag(of: event)
        switch event.kind {
        case .scalar(let text, let style, let tag):
            return YAMLNode(.scalar(text, style), at: event.location, end: event.end, tag: tag)
        case .sequenceStart(let tag):
            var elements: [YAMLNode] = []
            while true {
                let next = try events.next()
                if case .sequenceEnd = next.kind { break }
                elements.append(try node(next, depth: depth + 1))
            }
            return YAMLNode(.sequence(elements), at: event.location, tag: tag)
        case .mappingStart(let tag):
            return YAMLNode(.mapping(try pairs(depth: depth)), at: event.location, tag: tag)
        case .alias(let name):
            throw Diagnostic("aliases (*\(name)) are not supported: write the value out in full", at: event.location)
        default:
            throw events.unexpected()
        }
    }

    mutating func pairs(depth: Int) throws(Diagnostic) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        var firstLineOfKey: [String: Int] = [:]
        while true {
            let keyEvent = try events.next()
            if case .mappingEnd = keyEvent.kind { return pairs }
            let keyNode = try node(keyEvent, depth: depth + 1)
            let value = try node(try events.next(), depth: depth + 1)
            guard case .scalar(let key, _) = keyNode.kind else {
                problems.append(Diagnostic("a key must be plain text, found \(keyNode.typeDescription)", at: keyNode.location))
                continue
            }
            if let firstLine = firstLineOfKey[key] {
                problems.append(Diagnostic("duplicate key \(key.quotedValue) (first on line \(firstLine)): keep only one", at: keyNode.location))
                continue
            }
            firstLineOfKey[key] = keyNode.location.line
            pairs.append(YAMLPair(key: key, keyLocation: keyNode.location, value: value))
        }
    }
}
