import CYaml
import TomoCore

/// One libyaml event, copied into Swift values so the C event can be freed at once.
struct YAMLEvent {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case alias(String)
        case scalar(String, YAMLScalarStyle, tag: String?)
        case sequenceStart(tag: String?), sequenceEnd
        case mappingStart(tag: String?), mappingEnd
    }

    var kind: Kind
    var anchor: String?
    var location: SourceLocation
    /// Just after the event's text: for a scalar, after its last character or closing quote.
    var end: SourceLocation
}

/// Pulls events from libyaml. The parser lives in heap memory of its own (libyaml keeps
/// pointers into it), and so does a copy of the input it reads.
struct EventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let bytes: [UInt8]
    private let file: String
    /// Where the latest event started, for the rare error that has no place of its own.
    private var last: SourceLocation

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        last = SourceLocation(file: file, line: 1, column: 1)
        parser = .allocate(capacity: 1)
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        // Fails only when malloc fails; the first parse call then reports YAML_MEMORY_ERROR.
        _ = yaml_parser_initialize(parser)
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
    }

    func close() {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    mutating func next() throws(Diagnostic) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError() }
        defer { yaml_event_delete(&event) }
        let location = SourceLocation(file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        last = location
        var anchor: UnsafeMutablePointer<yaml_char_t>?
        let kind: YAMLEvent.Kind
        switch event.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT:
            kind = .alias(Self.string(event.data.alias.anchor) ?? "")
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            anchor = scalar.anchor
            let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
            kind = .scalar(text, Self.style(scalar.style), tag: Self.string(scalar.tag))
        case YAML_SEQUENCE_START_EVENT:
            anchor = event.data.sequence_start.anchor
            kind = .sequenceStart(tag: Self.string(event.data.sequence_start.tag))
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            anchor = event.data.mapping_start.anchor
            kind = .mappingStart(tag: Self.string(event.data.mapping_start.tag))
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        default: throw unexpected()
        }
        let end = SourceLocation(file: file, line: Int(event.end_mark.line) + 1, column: Int(event.end_mark.column) + 1)
        return YAMLEvent(kind: kind, anchor: Self.string(anchor), location: location, end: end)
    }

    /// An event the grammar does not allow here; libyaml guarantees well-formed streams, so
    /// this is a safety net rather than something a person should ever see.
    func unexpected() -> Diagnostic {
        Diagnostic("unexpected YAML structure", at: last)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    /// libyaml's problem and place, with the fix for the mistakes people make most.
    private func syntaxError() -> Diagnostic {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "the YAML cannot be read"
        let location: SourceLocation
        let offset: Int
        let context = state.context.map { String(cString: $0) }
        if state.error == YAML_READER_ERROR {
            offset = state.problem_offset
            location = SourceLocation(ofByte: offset, in: bytes, file: file)
        } else if context != nil, Self.toldWhereItBegan.contains(problem) {
            offset = state.context_mark.index
            location = SourceLocation(file: file, line: state.context_mark.line + 1, column: state.context_mark.column + 1)
        } else {
            offset = state.problem_mark.index
            location = SourceLocation(file: file, line: state.problem_mark.line + 1, column: state.problem_mark.column + 1)
        }
        if let tab = tabInIndentation(ofLineAt: offset) {
            return Diagnostic("a tab is used for indentation: use spaces, not tabs", at: tab)
        }
        if problem == Self.mappingValuesProblem || problem == "could not find expected ':'", let key = spacelessKey(near: offset) {
            return Diagnostic("YAML syntax error: a key needs a space after its colon: write `\(key.name): …`, not `\(key.name):…`", at: key.location)
        }
        if problem == Self.mappingValuesProblem, let mistake = misindentedKey(colonAt: offset) {
            return Diagnostic("YAML syntax error: \(mistake)", at: location)
        }
        var message = "YAML syntax error: \(problem)"
        if let context { message += " (\(context) on line \(state.context_mark.line + 1))" }
        if let hint = Self.hints[problem] { message += ": \(hint)" }
        if lineHasTypographicQuote(at: offset) { message += " (“ ” and ‘ ’ are typographic quotes, which YAML reads as text: quote with \" or ')" }
        return Diagnostic(message, at: location)
    }

    /// Problems libyaml finds past the line at fault (a key without its ':' on the next line, a
    /// quote never closed at the end of the file): told where what they are about began.
    private static let toldWhereItBegan: Set<String> = ["could not find expected ':'", "found unexpected end of stream"]

    /// Whether the line holding `offset` has a typographic quote (“ ” ‘ ’), which a person
    /// typing on a phone or in a word processor takes for a quote and YAML does not.
    private func lineHasTypographicQuote(at offset: Int) -> Bool {
        let start = lineStart(before: offset)
        let line = bytes[start...].prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: line, as: UTF8.self).unicodeScalars.contains(where: Suggestion.typographicQuotes.contains)
    }

    private static let mappingValuesProblem = "mapping values are not allowed in this context"

    /// libyaml reads a `key:` line indented differently from the line above as more of that
    /// line's value, and stops at the key's ':' ("mapping values are not allowed"). It is that
    /// when the colon ends the first word of its line, and the line is indented differently
    /// from the content line above it; a line indented like the one above continues a value
    /// that holds ": ", which needs quotes (the usual hint).
    private func misindentedKey(colonAt offset: Int) -> String? {
        let space = UInt8(ascii: " ")
        let colon = min(max(offset, 0), bytes.count)
        let line = lineStart(before: colon)
        var keyStart = line
        while keyStart < colon, bytes[keyStart] == space { keyStart += 1 }
        let key = bytes[keyStart..<colon]
        guard !key.isEmpty, !key.contains(space), !key.contains(UInt8(ascii: ":")), !key.starts(with: [UInt8(ascii: "-")]) else { return nil }
        // The content line above: not blank, not a comment.
        var above = line
        var aboveIndent = 0
        repeat {
            guard above > 0 else { return nil }
            above = lineStart(before: above - 1)
            aboveIndent = 0
            while above + aboveIndent < bytes.count, bytes[above + aboveIndent] == space { aboveIndent += 1 }
        } while above + aboveIndent >= bytes.count || [UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#")].contains(bytes[above + aboveIndent])
        // Its key's column: after a "- " that starts a list item.
        var siblingIndent = aboveIndent
        if bytes[(above + aboveIndent)...].starts(with: Array("- ".utf8)) { siblingIndent += 2 }
        let indent = keyStart - line
        guard indent != aboveIndent else { return nil }
        let aboveLine = SourceLocation(ofByte: above, in: bytes, file: file).line
        let siblingStart = above + siblingIndent
        var siblingEnd = siblingStart
        while siblingEnd < bytes.count, ![UInt8(ascii: ":"), UInt8(ascii: "\n")].contains(bytes[siblingEnd]) { siblingEnd += 1 }
        let sibling = siblingEnd < bytes.count && bytes[siblingEnd] == UInt8(ascii: ":")
            ? "\"\(String(decoding: bytes[siblingStart..<siblingEnd], as: UTF8.self))\" on line \(aboveLine)"
            : "line \(aboveLine)"
        let how = indent > siblingIndent ? "more" : "less"
        return "\"\(String(decoding: key, as: UTF8.self))\" is indented \(how) than \(sibling), so YAML reads it as more of the value above: check the indentation (the keys of one mapping start in the same column, here column \(siblingIndent + 1))"
    }

    /// The offset where the line holding `offset` starts.
    /// A key written without the space after its colon (`name:Alice`), on the line of `offset`
    /// or one of the three above it, nearest first: to libyaml, one word that runs on into the
    /// next lines, which it stops at later.
    private func spacelessKey(near offset: Int) -> (name: String, location: SourceLocation)? {
        var line = lineStart(before: offset)
        for _ in 0..<4 {
            var start = line
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
            var end = start
            while end < bytes.count, Self.isKeyByte(bytes[end]) { end += 1 }
            if end > start, end + 1 < bytes.count, bytes[end] == UInt8(ascii: ":"),
               // Not `https://…`, a line of a long text that is no key.
               ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "/")].contains(bytes[end + 1]),
               let first = bytes[start...].first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                return (String(decoding: bytes[start..<end], as: UTF8.self), SourceLocation(ofByte: start, in: bytes, file: file))
            }
            guard line > 0 else { return nil }
            line = lineStart(before: line - 1)
        }
        return nil
    }

    /// A letter, digit, `_` or `-` of an ASCII key (every key a content file has).
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private func lineStart(before offset: Int) -> Int {
        var start = min(max(offset, 0), bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    private static let hints: [String: String] = [
        mappingValuesProblem: "put a value that contains \": \" in quotes",
        "did not find expected key": "check the indentation of this line and the one above",
        "did not find expected '-' indicator": "check the indentation of this line: the keys of a list item start in the column of its first key, after \"- \"",
        "could not find expected ':'": "a key needs a ':' after it, or put the text in quotes",
        "found character that cannot start any token": "put text that starts with @, ` or % in quotes",
        "found unexpected end of stream": "a quote or bracket is not closed",
    ]

    /// libyaml reports tab indentation as some other problem on the tab's line; the real cause
    /// is a tab in the line's leading whitespace.
    private func tabInIndentation(ofLineAt offset: Int) -> SourceLocation? {
        let clamped = min(max(offset, 0), bytes.count)
        var lineStart = clamped
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var index = lineStart
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            if bytes[index] == UInt8(ascii: "\t") { return SourceLocation(ofByte: index, in: bytes, file: file) }
            index += 1
        }
        return nil
    }
}
