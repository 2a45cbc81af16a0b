import TomoCore

/// Turns Mustache source into `Node`s: scan tags (honouring delimiter changes), remove standalone
/// lines, then build the section tree. All whitespace rules are settled here, so rendering only
/// copies bytes.
struct Parser {
    /// Sections, inverted sections, blocks and parents may nest this deep in one template; deeper
    /// is an error, not a stack overflow (as YAML and JSON nesting are).
    static let maximumNesting = 100

    private let source: [UInt8]
    private let file: String
    /// Every section and partial tag has a location.
    private let lineStarts: LineStarts

    init(source: String, file: String) {
        let bytes = Array(source.utf8)
        self.source = bytes
        self.file = file
        lineStarts = LineStarts(bytes)
    }

    /// The compiled nodes, and where the template names other templates by a fixed name.
    func parse() throws(Diagnostic) -> (nodes: [Node], references: [TemplateReferenceSite]) {
        var tokens = try scan()
        removeStandaloneLines(&tokens)
        var index = 0
        let nodes = try buildNodes(tokens, from: &index, closing: nil, depth: 0)
        let references = tokens.compactMap { token -> TemplateReferenceSite? in
            guard token.kind == .tag(.partial) || token.kind == .tag(.parent), !token.isDynamic else { return nil }
            return TemplateReferenceSite(name: token.name, location: location(token.start))
        }
        return (nodes, references)
    }

    // MARK: - Tokens

    enum TagKind: Equatable {
        case variable(escaped: Bool)
        case section, inverted, close, comment, partial, parent, block, delimiters
    }

    struct Token {
        enum Kind: Equatable {
            case text
            case tag(TagKind)
            /// Whitespace or a newline taken away by the standalone rule.
            case removed
        }

        var kind: Kind
        /// Byte range in the source: the text itself, or the whole tag with its delimiters.
        var start: Int
        var end: Int
        /// The tag's name, trimmed (for a dynamic name, without the `*`).
        var name = ""
        var isDynamic = false
        var isStandalone = false
        /// Leading whitespace of a standalone tag's line.
        var indentation: [UInt8] = []
        /// The delimiters in force where the tag is written, for messages that show a tag to add.
        var delimiters = Delimiters()
    }

    /// A tag's opening and closing delimiters: `{{` and `}}` until a delimiter change.
    struct Delimiters {
        var open = "{{"
        var close = "}}"

        /// `name` between these delimiters, as a template would write the tag.
        func tag(_ name: String) -> String { open + name + close }
    }

    private func location(_ offset: Int) -> SourceLocation {
        lineStarts.location(ofByte: offset, in: source, file: file)
    }

    private func error(_ message: String, at offset: Int) -> Diagnostic {
        Diagnostic(message, at: location(offset))
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: source[start..<end], as: UTF8.self)
    }

    private func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset + pattern.count <= source.count else { return false }
        for index in 0..<pattern.count where source[offset + index] != pattern[index] { return false }
        return true
    }

    private func firstMatch(of pattern: [UInt8], from offset: Int) -> Int? {
        guard let first = pattern.first else { return nil }
        var position = offset
        while position + pattern.count <= source.count {
            if source[position] == first, matches(pattern, at: position) { return position }
            position += 1
        }
        return nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Splits the source into text (one token per line piece, newline included) and tags.
    private func scan() throws(Diagnostic) -> [Token] {
        var tokens: [Token] = []
        var open = Array("{{".utf8)
        var close = Array("}}".utf8)
        var position = 0

        func appendText(_ start: Int, _ end: Int) {
            var lineStart = start
            var index = start
            while index < end {
                if source[index] == 0x0A {
                    tokens.append(Token(kind: .text, start: lineStart, end: index + 1))
                    lineStart = index + 1
                }
                index += 1
            }
            if lineStart < end { tokens.append(Token(kind: .text, start: lineStart, end: end)) }
        }

        while position < source.count {
            guard let tagStart = firstMatch(of: open, from: position) else {
                appendText(position, source.count)
                break
            }
            appendText(position, tagStart)
            var contentStart = tagStart + open.count
            guard contentStart <= source.count else { throw error("unclosed tag: add \(String(decoding: close, as: UTF8.self)) after it", at: tagStart) }

            let sigil: UInt8? = contentStart < source.count ? source[contentStart] : nil
            var kind: TagKind
            switch sigil {
            case UInt8(ascii: "#"): kind = .section
            case UInt8(ascii: "^"): kind = .inverted
            case UInt8(ascii: "/"): kind = .close
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: ">"): kind = .partial
            case UInt8(ascii: "<"): kind = .parent
            case UInt8(ascii: "$"): kind = .block
            case UInt8(ascii: "="): kind = .delimiters
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: "{"): kind = .variable(escaped: false)
            default: kind = .variable(escaped: true)
            }
            let isTriple = sigil == UInt8(ascii: "{")
            if case .variable(escaped: true) = kind {} else { contentStart += 1 }

            // The closing delimiter, preceded by `}` for a triple mustache and `=` for a delimiter change.
            var terminator = close
            if isTriple { terminator = [UInt8(ascii: "}")] + close }
            if kind == .delimiters { terminator = [UInt8(ascii: "=")] + close }
            guard let contentEnd = firstMatch(of: terminator, from: contentStart) else {
                let closing = String(decoding: terminator, as: UTF8.self)
                if isTriple { throw error("unclosed triple mustache: end it with \(closing)", at: tagStart) }
                if kind == .delimiters { throw error("unclosed delimiter change: end it with \(closing)", at: tagStart) }
                if kind == .comment { throw error("unclosed comment: end it with \(closing)", at: tagStart) }
                throw error("unclosed tag: end it with \(closing)", at: tagStart)
            }
            let tagEnd = contentEnd + terminator.count
            position = tagEnd
            var token = Token(kind: .tag(kind), start: tagStart, end: tagEnd)

            switch kind {
            case .comment:
                break
            case .delimiters:
                let parts = text(contentStart, contentEnd).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
                    throw error("invalid delimiter change: give two delimiters separated by a space, without '=', like {{=<% %>=}}", at: tagStart)
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            default:
                var name = text(contentStart, contentEnd).trimmingBlanks()
                if kind == .partial || kind == .parent || kind == .close, name.hasPrefix("*") {
                    token.isDynamic = true
                    name = String(name.dropFirst()).trimmingBlanks()
                }
                if name.isEmpty {
                    throw error("empty tag: put a name between the delimiters", at: tagStart)
                }
                if name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                    throw error("tag name \"\(name)\" contains white space: names are single words like user.name", at: tagStart)
                }
                token.name = name
            }
            // After a delimiter change, the new ones: those in force from here on.
            token.delimiters = Delimiters(open: String(decoding: open, as: UTF8.self), close: String(decoding: close, as: UTF8.self))
            tokens.append(token)
        }
        return tokens
    }

    // MARK: - Standalone lines

    /// A line holding only white space and tags that render nothing in place (sections, comments,
    /// partials, blocks, delimiter changes) loses its white space and newline. Parent tags may share
    /// the line with one other tag, since the text around them is ignored anyway.
    private func removeStandaloneLines(_ tokens: inout [Token]) {
        var openKinds: [TagKind] = []
        var lineStart = 0
        while lineStart < tokens.count {
            var lineEnd = lineStart
            while lineEnd < tokens.count {
                let token = tokens[lineEnd]
                lineEnd += 1
                if token.kind == .text, source[token.end - 1] == 0x0A { break }
            }
            // Track which sections are open, so a close tag knows whether it closes a parent.
            var closesParent: [Int: Bool] = [:]
            for index in lineStart..<lineEnd {
                guard case .tag(let kind) = tokens[index].kind else { continue }
                switch kind {
                case .section, .inverted, .parent, .block: openKinds.append(kind)
                case .close: closesParent[index] = openKinds.popLast() == .parent
                default: break
                }
            }
            if isStandalone(tokens[lineStart..<lineEnd], closesParent: closesParent) {
                let first = tokens[lineStart]
                let indentation: [UInt8] = first.kind == .text ? Array(source[first.start..<first.end]).filter(Self.isBlank) : []
                let nextLineIndentation = leadingBlanks(from: tokens[lineEnd - 1].end)
                for index in lineStart..<lineEnd {
                    if tokens[index].kind == .text {
                        tokens[index].kind = .removed
                    } else {
                        tokens[index].isStandalone = true
                        // A standalone block takes the indentation of the first line of its content.
                        tokens[index].indentation = tokens[index].kind == .tag(.block) ? nextLineIndentation : indentation
                    }
                }
            } else {
                for index in lineStart..<lineEnd where tokens[index].kind == .tag(.block) {
                    tokens[index].indentation = blanksBeforeOnLine(tokens[index].start) ?? []
                }
            }
            lineStart = lineEnd
        }
    }

    private func isStandalone(_ line: ArraySlice<Token>, closesParent: [Int: Bool]) -> Bool {
        var tags = 0
        var significantTags = 0
        for index in line.indices {
            let token = line[index]
            switch token.kind {
            case .removed:
                continue
            case .text:
                var end = token.end
                if source[end - 1] == 0x0A {
                    guard index == line.indices.last else { return false }
                    end -= 1
                    if end > token.start, source[end - 1] == 0x0D { end -= 1 }
                }
                for offset in token.start..<end where !Self.isBlank(source[offset]) { return false }
            case .tag(let kind):
                tags += 1
                switch kind {
                case .variable: return false
                case .parent: break
                case .close where closesParent[index] == true: break
                default: significantTags += 1
                }
            }
        }
        return tags > 0 && significantTags <= 1
    }

    private func leadingBlanks(from offset: Int) -> [UInt8] {
        var end = offset
        while end < source.count, Self.isBlank(source[end]) { end += 1 }
        return Array(source[offset..<end])
    }

    /// The text between the start of the line and `offset`, if it is all spaces and tabs.
    private func blanksBeforeOnLine(_ offset: Int) -> [UInt8]? {
        var start = offset
        while start > 0, source[start - 1] != 0x0A {
            guard Self.isBlank(source[start - 1]) else { return nil }
            start -= 1
        }
        return Array(source[start..<offset])
    }

    // MARK: - Tree

    private func buildNodes(_ tokens: [Token], from index: inout Int, closing opener: Token?, depth: Int) throws(Diagnostic) -> [Node] {
        var nodes: [Node] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .removed:
                continue
            case .text:
                // Adjacent pieces of text (one token per line) become one node, so rendering
                // appends one buffer. The node is taken out and put back so that its bytes are
                // appended to in place: a copy per line made a long template quadratic.
                if case .text(var previous)? = nodes.last {
                    nodes.removeLast()
                    previous += source[token.start..<token.end]
                    nodes.append(.text(previous))
                } else {
                    nodes.append(.text(Array(source[token.start..<token.end])))
                }
            case .tag(let kind):
                switch kind {
                case .comment, .delimiters:
                    continue
                case .variable(let escaped):
                    nodes.append(.variable(Name(parsing: token.name), escaped: escaped))
                case .partial:
                    nodes.append(.partial(reference(token), indentation: token.isStandalone ? token.indentation : [], at: location(token.start)))
                case .section, .inverted, .block, .parent:
                    guard depth < Self.maximumNesting else {
                        throw error("\(token.delimiters.tag(sigil(token) + displayName(token))) nests deeper than \(Self.maximumNesting) levels of sections, blocks and parents: close some of them first, or move a part into a partial", at: token.start)
                    }
                    let children = try buildNodes(tokens, from: &index, closing: token, depth: depth + 1)
                    switch kind {
                    case .section: nodes.append(.section(Name(parsing: token.name), children, at: location(token.start)))
                    case .inverted: nodes.append(.invertedSection(Name(parsing: token.name), children, at: location(token.start)))
                    case .block: nodes.append(.block(token.name, content: children, indentation: token.indentation, isStandalone: token.isStandalone))
                    default:
                        var arguments: [String: BlockArgument] = [:]
                        for child in children {
                            guard case .block(let name, let content, let indentation, let isStandalone) = child else { continue }
                            var atLineStart = isStandalone
                            arguments[name] = BlockArgument(nodes: Self.removingIndentation(indentation, from: content, atLineStart: &atLineStart))
                        }
                        nodes.append(.parent(reference(token), indentation: token.isStandalone ? token.indentation : [], arguments: arguments, at: location(token.start)))
                    }
                case .close:
                    guard let opener else {
                        throw error("\(token.delimiters.tag("/" + displayName(token))) closes nothing: no section named \"\(token.name)\" is open", at: token.start)
                    }
                    guard opener.name == token.name, opener.isDynamic == token.isDynamic else {
                        let openerLocation = location(opener.start)
                        throw error("\(token.delimiters.tag("/" + displayName(token))) does not match \(opener.delimiters.tag(sigil(opener) + displayName(opener))) opened at line \(openerLocation.line), column \(openerLocation.column): close sections in the reverse order they were opened", at: token.start)
                    }
                    return nodes
                }
            }
        }
        if let opener {
            // The close tag is written with the delimiters in force at the end of the template.
            let closing = tokens.last(where: { $0.kind != .text && $0.kind != .removed })?.delimiters ?? Delimiters()
            throw error("\(opener.delimiters.tag(sigil(opener) + displayName(opener))) is never closed: add \(closing.tag("/" + displayName(opener)))", at: opener.start)
        }
        return nodes
    }

    private func displayName(_ token: Token) -> String { token.isDynamic ? "*" + token.name : token.name }

    private func sigil(_ token: Token) -> String {
        switch token.kind {
        case .tag(.section): "#"
        case .tag(.inverted): "^"
        case .tag(.parent): "<"
        case .tag(.block): "$"
        default: ""
        }
    }

    private func reference(_ token: Token) -> TemplateReference {
        token.isDynamic ? .dynamic(Name(parsing: token.name)) : .fixed(token.name)
    }

    /// Takes `indentation` off the start of every line of a block argument, so the argument can be
    /// re-indented where the parent places it.
    private static func removingIndentation(_ indentation: [UInt8], from nodes: [Node], atLineStart: inout Bool) -> [Node] {
        guard !indentation.isEmpty else { return nodes }
        return nodes.map { node in
            switch node {
            case .text(let bytes):
                var output: [UInt8] = []
                output.reserveCapacity(bytes.count)
                var index = 0
                while index < bytes.count {
                    if atLineStart {
                        var matched = 0
                        while matched < indentation.count, index + matched < bytes.count, bytes[index + matched] == indentation[matched] {
                            matched += 1
                        }
                        index += matched
                        atLineStart = false
                        if index >= bytes.count { break }
                    }
                    output.append(bytes[index])
                    if bytes[index] == 0x0A { atLineStart = true }
                    index += 1
                }
                return .text(output)
            case .section(let name, let children, let location):
                return .section(name, removingIndentation(indentation, from: children, atLineStart: &atLineStart), at: location)
            case .invertedSection(let name, let children, let location):
                return .invertedSection(name, removingIndentation(indentation, from: children, atLineStart: &atLineStart), at: location)
            case .block(let name, let content, let blockIndentation, let isStandalone):
                // A nested block's own indentation becomes relative to the argument's, as its
                // text does: rendering adds the indentation of the place the argument lands.
                let relative = blockIndentation.starts(with: indentation) ? Array(blockIndentation.dropFirst(indentation.count)) : blockIndentation
                return .block(name, content: removingIndentation(indentation, from: content, atLineStart: &atLineStart), indentation: relative, isStandalone: isStandalone)
            default:
                atLineStart = false
                return node
            }
        }
    }
}

extension String {
    func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
