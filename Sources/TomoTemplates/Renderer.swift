import Glibc
import TomoCore

/// Walks compiled nodes against a context stack, appending UTF-8 bytes to one output buffer.
/// No parsing and no file I/O happen here: partials come from the library, already compiled.
///
/// Partials can include each other in a cycle or many times over (`{{>a}}{{>a}}` in `a`'s
/// partial, thirty levels down), so one render is bounded by `RenderLimits`: reaching one is an
/// error at the tag being rendered, not a stack overflow, a machine out of memory or a hang.
struct Renderer {
    let library: TemplateLibrary
    let templateName: String
    let limits: RenderLimits
    var output: [UInt8]
    /// `output.count` beyond which this render has written too much (the buffer may not start empty).
    var outputLimit: Int
    var stack: [JSONValue]
    /// Prefix for every line, from the standalone partials, parents and blocks we are inside.
    var indentation: [UInt8] = []
    var atLineStart = true
    var depth = 0
    var steps = 0
    /// The different tags a limit error passed on its way out, innermost first.
    var trail: [SourceLocation] = []

    init(library: TemplateLibrary, templateName: String, context: JSONValue, output: [UInt8], limits: RenderLimits) {
        self.library = library
        self.templateName = templateName
        self.limits = limits
        self.stack = [context]
        self.output = output
        self.outputLimit = output.count + limits.outputBytes
    }

    mutating func render(_ nodes: [Node], overrides: [String: BlockArgument]) throws(Diagnostic) {
        for node in nodes {
            steps += 1
            guard steps <= limits.steps, output.count <= outputLimit else { throw limitReached() }
            switch node {
            case .text(let bytes):
                writeText(bytes)
            case .variable(let name, let escaped):
                if let value = lookup(name) { writeValue(value, escaped: escaped) }
            case .section(let name, let children, let location):
                guard let value = lookup(name) else { continue }
                switch value {
                case .array(let items):
                    for item in items {
                        stack.append(item)
                        try enter(children, at: location, overrides: overrides)
                        stack.removeLast()
                    }
                case .null, .bool(false):
                    continue
                case .string(let text) where text.isEmpty:
                    continue
                default:
                    stack.append(value)
                    try enter(children, at: location, overrides: overrides)
                    stack.removeLast()
                }
            case .invertedSection(let name, let children, let location):
                if Self.isFalsey(lookup(name)) { try enter(children, at: location, overrides: overrides) }
            case .partial(let reference, let extraIndentation, let location):
                guard let template = resolve(reference) else { continue }
                try enter(template.nodes, at: location, indentation: extraIndentation, overrides: overrides)
            case .parent(let reference, let extraIndentation, let arguments, let location):
                guard let template = resolve(reference) else { continue }
                // Arguments from further out win: the outermost template has the last word.
                let merged = overrides.isEmpty ? arguments : arguments.merging(overrides) { _, outer in outer }
                try enter(template.nodes, at: location, indentation: extraIndentation, overrides: merged)
            case .block(let name, let content, let blockIndentation, _):
                if let argument = overrides[name] {
                    try enter(argument.nodes, at: nil, indentation: blockIndentation, overrides: overrides)
                } else {
                    try enter(content, at: nil, overrides: overrides)
                }
            }
        }
        guard output.count <= outputLimit else { throw limitReached() }
    }

    /// Renders a whole template. A limit reached is reported at the innermost tag it was reached
    /// in, with the other tags it went through: in a cycle of partials those are the cycle, and
    /// some of them are in the site's own templates even when the innermost is a built-in one.
    mutating func renderTemplate(_ nodes: [Node]) throws(Diagnostic) {
        do throws(Diagnostic) {
            try render(nodes, overrides: [:])
        } catch {
            let place = trail.first ?? SourceLocation(file: templateName, line: 1, column: 1)
            let others = trail.dropFirst().map(\.description)
            let through = others.isEmpty ? "" : ", through \(others.joined(separator: ", "))"
            throw Diagnostic("\(error.message) (rendering \(templateName)\(through))", at: place)
        }
    }

    /// Renders nodes one level deeper, inside the tag at `location` (nil for a block, which is
    /// inside its parent's tag). A limit reached within collects the tags it passes on the way
    /// out, so rendering keeps no trail of where it is until then.
    private mutating func enter(_ nodes: [Node], at location: SourceLocation?, indentation extra: [UInt8] = [], overrides: [String: BlockArgument]) throws(Diagnostic) {
        depth += 1
        do throws(Diagnostic) {
            guard depth <= limits.depth else { throw limitReached() }
            let saved = indentation
            if !extra.isEmpty { indentation += extra }
            try render(nodes, overrides: overrides)
            indentation = saved
        } catch {
            if let location, trail.count < Self.trailLength, !trail.contains(location) { trail.append(location) }
            throw error
        }
        depth -= 1
    }

    /// How many different tags an error names, innermost first.
    static let trailLength = 6

    /// The error for the limit just reached; its location is added on the way out.
    private func limitReached() -> Diagnostic {
        if depth > limits.depth {
            return Diagnostic("partials, parents and sections nest deeper than \(limits.depth) levels here: does a partial include itself with no condition to stop?")
        }
        if output.count > outputLimit {
            return Diagnostic("the page grows beyond \(limits.outputBytes >> 20) MiB here: do partials include each other many times over?")
        }
        return Diagnostic("rendering takes more than \(limits.steps) steps here: do partials include each other many times over, or sections repeat inside each other?")
    }

    private func resolve(_ reference: TemplateReference) -> Template? {
        switch reference {
        case .fixed(let name):
            return library[name]
        case .dynamic(let name):
            guard case .string(let resolved)? = lookup(name) else { return nil }
            return library[resolved]
        }
    }

    static func isFalsey(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: return true
        case .array(let items)?: return items.isEmpty
        case .string(let text)?: return text.isEmpty
        default: return false
        }
    }

    /// Resolves a name: the first part through the context stack (top first), the rest inside it.
    func lookup(_ name: Name) -> JSONValue? {
        guard let first = name.parts.first else { return stack.last }
        var value: JSONValue
        if name.topOnly {
            guard case .object(let members)? = stack.last, let found = members[first] else { return nil }
            value = found
        } else {
            var found: JSONValue?
            for frame in stack.reversed() {
                if case .object(let members) = frame, let member = members[first] {
                    found = member
                    break
                }
            }
            guard let found else { return nil }
            value = found
        }
        for part in name.parts.dropFirst() {
            guard case .object(let members) = value, let member = members[part] else { return nil }
            value = member
        }
        return value
    }

    // MARK: - Writing

    private mutating func writeText(_ bytes: [UInt8]) {
        guard let last = bytes.last else { return }
        if indentation.isEmpty {
            output.append(contentsOf: bytes)
            atLineStart = last == 0x0A
            return
        }
        // Inside an indented partial every line of text is prefixed: the line breaks are
        // found with memchr, not byte by byte (most of a page's text is inside one).
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                if atLineStart { output.append(contentsOf: indentation) }
                let end: Int
                if let lineBreak = memchr(base + start, 0x0A, buffer.count - start) {
                    end = base.distance(to: lineBreak.assumingMemoryBound(to: UInt8.self)) + 1
                    atLineStart = true
                } else {
                    end = buffer.count
                    atLineStart = false
                }
                output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                start = end
            }
        }
    }

    private mutating func beginValue() {
        if atLineStart, !indentation.isEmpty { output.append(contentsOf: indentation) }
        atLineStart = false
    }

    private mutating func writeValue(_ value: JSONValue, escaped: Bool) {
        switch value {
        case .null, .array, .object:
            return
        case .string(let text):
            guard !text.isEmpty else { return }
            beginValue()
            if escaped { appendEscaped(text) } else { output.append(contentsOf: text.utf8) }
        case .int(let number):
            beginValue()
            appendInteger(number)
        case .double(let number):
            beginValue()
            JSONWriter.appendNumber(number, to: &output)
        case .bool(let flag):
            beginValue()
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        }
    }

    private mutating func appendInteger(_ number: Int) {
        if number >= 0, number < 10 {
            output.append(UInt8(ascii: "0") + UInt8(number))
        } else {
            output.append(contentsOf: String(number).utf8)
        }
    }

    /// HTML-escapes `& < > " '`, copying the runs between them in one go.
    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                // Every byte that needs escaping is below '?': one comparison skips letters and UTF-8.
                if byte > 0x3E { continue }
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                if index > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                output.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                runStart = index + 1
            }
            if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
    }
}

/// How far one render may go before it is an error; `standard` is far beyond what a real page
/// needs.
public struct RenderLimits: Sendable {
    /// Partials, parents, blocks and sections inside each other (the stack).
    public var depth: Int
    /// Bytes written (memory): the home page at its 100,000-user maximum is about 230 MB.
    public var outputBytes: Int
    /// Nodes rendered (time, even when they write nothing): a page takes about one per 20 bytes
    /// of output.
    public var steps: Int

    public static let standard = RenderLimits(depth: 200, outputBytes: 256 << 20, steps: 32_000_000)
}
