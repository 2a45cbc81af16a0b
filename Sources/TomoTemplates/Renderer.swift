import TomoCore

/// Walks compiled nodes against a context stack, appending UTF-8 bytes to one output buffer.
/// No parsing and no file I/O happen here: partials come from the library, already compiled.
struct Renderer {
    /// Partials and parents may nest this deep; deeper means a template includes itself without end.
    static let maximumDepth = 100

    let library: TemplateLibrary
    let templateName: String
    var output: [UInt8]
    var stack: [JSONValue]
    /// Prefix for every line, from the standalone partials, parents and blocks we are inside.
    var indentation: [UInt8] = []
    var atLineStart = true
    var depth = 0

    init(library: TemplateLibrary, templateName: String, context: JSONValue, output: [UInt8]) {
        self.library = library
        self.templateName = templateName
        self.stack = [context]
        self.output = output
    }

    mutating func render(_ nodes: [Node], overrides: [String: BlockArgument]) throws(Diagnostic) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                writeText(bytes)
            case .variable(let name, let escaped):
                if let value = lookup(name) { writeValue(value, escaped: escaped) }
            case .section(let name, let children):
                guard let value = lookup(name) else { continue }
                switch value {
                case .array(let items):
                    for item in items {
                        stack.append(item)
                        try render(children, overrides: overrides)
                        stack.removeLast()
                    }
                case .null, .bool(false):
                    continue
                case .string(let text) where text.isEmpty:
                    continue
                default:
                    stack.append(value)
                    try render(children, overrides: overrides)
                    stack.removeLast()
                }
            case .invertedSection(let name, let children):
                if Self.isFalsey(lookup(name)) { try render(children, overrides: overrides) }
            case .partial(let reference, let extraIndentation):
                guard let template = resolve(reference) else { continue }
                try enter(template.nodes, indentation: extraIndentation, overrides: overrides)
            case .parent(let reference, let extraIndentation, let arguments):
                guard let template = resolve(reference) else { continue }
                // Arguments from further out win: the outermost template has the last word.
                let merged = overrides.isEmpty ? arguments : arguments.merging(overrides) { _, outer in outer }
                try enter(template.nodes, indentation: extraIndentation, overrides: merged)
            case .block(let name, let content, let blockIndentation, _):
                if let argument = overrides[name] {
                    try enter(argument.nodes, indentation: blockIndentation, overrides: overrides)
                } else {
                    try render(content, overrides: overrides)
                }
            }
        }
    }

    private mutating func enter(_ nodes: [Node], indentation extra: [UInt8], overrides: [String: BlockArgument]) throws(Diagnostic) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw Diagnostic("template \(templateName): partials nest deeper than \(Self.maximumDepth) levels; does a partial include itself with no condition to stop?")
        }
        let saved = indentation
        if !extra.isEmpty { indentation += extra }
        try render(nodes, overrides: overrides)
        indentation = saved
        depth -= 1
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
        var start = 0
        while start < bytes.count {
            if atLineStart { output.append(contentsOf: indentation) }
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if end < bytes.count {
                end += 1
                atLineStart = true
            } else {
                atLineStart = false
            }
            output.append(contentsOf: bytes[start..<end])
            start = end
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
