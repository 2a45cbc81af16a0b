import TomoCore
import TomoMarkdown
import TomoYAML

/// Reads typed values out of located YAML nodes for one file, collecting every problem (with
/// its place and fix) instead of stopping at the first, so a check lists them all at once.
final class NodeReader {
    private(set) var diagnostics: [Diagnostic] = []
    /// The files (absolute paths) this reader checked exist, each found by the plain route (see
    /// `ContainedFile.checkRoute`); nil once any was not, whose answer a stamp cannot vouch for.
    /// What `ParsedFiles` keeps a parsed file against.
    private(set) var checkedFiles: [String]? = []

    /// Records a file checked on the plain route, or (nil) one that was not.
    func noteChecked(_ path: String?) {
        if let path { checkedFiles?.append(path) } else { checkedFiles = nil }
    }

    func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(message, at: location))
    }

    func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(message, at: location, severity: .warning))
    }

    /// Markdown text parsed, or nil after reporting why it may not be published:
    /// - it nests block quotes and lists deeper than `Markdown.maximumNesting` (refused before
    ///   libcmark sees it, whose time grows with the square of that depth);
    /// - a character reference gives a character no page may hold (`&#x1B;`, `&#xFFFF;`),
    ///   which the check of raw text cannot see.
    ///
    /// `firstLine` is the file line the text starts on when it is a file's body (the error is
    /// then at its own line); otherwise the error is at `location`, the value holding the text
    /// (a bio), and names the text's line.
    func readableMarkdown(_ text: String, named name: String, at location: SourceLocation, firstLine: Int? = nil) -> Markdown.Document? {
        func report(_ message: String, line: Int, column: Int) {
            if let firstLine {
                error(message, at: SourceLocation(file: location.file, line: firstLine + line - 1, column: column))
            } else {
                error(message + " (its line \(line))", at: location)
            }
        }
        if let (line, column) = Markdown.nestingProblem(in: text) {
            report("\(name) nests block quotes and lists more than \(Markdown.maximumNesting) deep: write it with fewer `>` and list markers", line: line, column: column)
            return nil
        }
        let document = Markdown.Document(text)
        if let (scalar, line) = document.forbiddenCharacter {
            report("\(name) gives \(ForbiddenCharacters.describe(scalar)) through a character reference (&#…;), which no page may hold: remove the reference", line: line, column: 1)
            return nil
        }
        return document
    }

    /// Splits a Markdown file into front matter and body; a problem (such as a missing closing
    /// `---`) becomes this reader's and gives nil.
    func splitFrontMatter(_ bytes: [UInt8], file: String) -> FrontMatter? {
        do {
            return try FrontMatter.split(bytes, file: file)
        } catch {
            add([error])
            return nil
        }
    }

    /// Parses front matter or a whole YAML file; its problems become this reader's.
    func parseYAML(_ yaml: some Collection<UInt8>, file: String) -> YAMLNode? {
        // A tree with a duplicate key is still read, so its other problems are told too.
        let (root, problems) = YAMLParser.parseReportingAll(Array(yaml), file: file)
        add(problems)
        return root
    }

    func add(_ problems: [Diagnostic]) {
        diagnostics += problems
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The fields of a mapping node, after reporting each key that is not in `table`.
    func fields(of node: YAMLNode, table: KeyTable) -> Fields? {
        let what = table.what
        guard let pairs = node.mapping else {
            // `name:Alice` is one word to YAML, which needs a space after a key's colon.
            var fix = ""
            if case .scalar(let text, _) = node.kind, let colon = text.firstIndex(of: ":"), colon != text.startIndex,
               text.index(after: colon) < text.endIndex, !text[text.index(after: colon)].isWhitespace {
                fix = ": a key needs a space after its colon (`\(text[..<colon]): …`, not `\(text[..<colon]):…`)"
            }
            // A `.json` profile is told in JSON's words (its nodes come from the same validator).
            if node.location.file.hasSuffix(".json") {
                let found = switch node.kind {
                case .sequence: "a list"
                case .mapping: "an object"
                case .scalar: "a single value"
                }
                error("expected \(what) as a JSON object ({\"name\": \"…\", …}), found \(found)", at: node.location)
                return nil
            }
            error("expected \(what) as `key: value` lines, found \(node.typeDescription)\(fix)", at: node.location)
            return nil
        }
        var byKey: [String: YAMLPair] = [:]
        for pair in pairs {
            guard table.nameSet.contains(pair.key) else {
                let known = table.names
                let hint = Suggestion.hint(for: pair.key, in: known)
                let fix = hint.isEmpty ? ": " + (table.unknownKeyFix ?? "\(what) takes \(known.joined(separator: ", "))") : hint
                error("unknown key \(pair.key.quotedValue) in \(what)\(fix)", at: pair.keyLocation)
                continue
            }
            byKey[pair.key] = pair
        }
        return Fields(location: node.location, pairs: byKey)
    }

    /// The value of `key`, or nil when the key is absent. A key that is there with no value
    /// (`visibility:`, or `visibility: #private`, where `#` after a space starts a comment) is
    /// YAML's null: an error, never "use the default" (an empty `visibility:` read as public
    /// would publish the post). Every typed read below goes through here. `example` shows a
    /// value in the message.
    func value(_ fields: Fields, _ key: String, example: String? = nil) -> YAMLNode? {
        guard let node = fields.pairs[key]?.value else { return nil }
        guard node.scalar != .null else {
            let write = example.map { "write one, like `\(key): \($0)`," } ?? "write one"
            // A JSON profile's `null` is written as such; in YAML a `#` may have made it a comment.
            let hint = node.location.file.hasSuffix(".json") ? "" : " (after a space, # starts a YAML comment: put a value with # in quotes)"
            error("\(key.quotedValue) has no value: \(write) or remove the line\(hint)", at: node.location)
            return nil
        }
        return node
    }

    /// Text: any scalar but null. Numbers and booleans keep the text as written (`name: 1984`).
    /// Nil when the key is absent or has no value (reported); `required` keys report both.
    func string(_ fields: Fields, _ key: String, required example: String? = nil) -> String? {
        let node = fields.pairs[key]?.value
        if let example, node == nil || node?.scalar == .null || node?.isBlankText == true {
            let place = node?.location ?? fields.location
            error("\(key.quotedValue) is missing or empty: add a line like `\(key): \(example)`", at: place)
            return nil
        }
        return value(fields, key).flatMap { string($0, named: key.quotedValue) }
    }

    /// The text of a scalar node, or nil (reported) when it is a list or a mapping, or holds a
    /// character no text may hold: every text value of every content file is read here, so an
    /// escape (`"\e"`, `"\u0000"`) cannot bring in what the raw file check refuses.
    func string(_ node: YAMLNode, named name: String) -> String? {
        guard case .scalar(let text, _) = node.kind else {
            error("expected a string for \(name), found \(node.typeDescription)", at: node.location)
            return nil
        }
        if let problem = ForbiddenCharacters.problem(in: text, named: name) {
            error(problem, at: node.location)
            return nil
        }
        return text
    }

    /// A whole number in `range`, or nil (absent, or wrong and reported).
    func int(_ fields: Fields, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let node = value(fields, key, example: String(range.lowerBound)) else { return nil }
        return int(node, named: key.quotedValue, in: range)
    }

    func int(_ node: YAMLNode, named name: String, in range: ClosedRange<Int>) -> Int? {
        // `10.0` and `1e2` are whole numbers too, as JSON Schema counts them (the schemas say
        // "integer"); `10.5` is not.
        let whole: Int?
        switch node.scalar {
        case .int(let value)?: whole = value
        case .float(let value)? where value.rounded() == value: whole = Int(exactly: value)
        default: whole = nil
        }
        guard let value = whole else {
            error("expected a whole number for \(name), found \(describe(node))", at: node.location)
            return nil
        }
        guard range.contains(value) else {
            error("\(name) must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: node.location)
            return nil
        }
        return value
    }

    /// `true` or `false`; YAML 1.1's `yes`/`no`/`on`/`off` are refused with the fix, since
    /// YAML 1.2 reads them as text.
    func bool(_ fields: Fields, _ key: String) -> Bool? {
        guard let node = value(fields, key, example: "true") else { return nil }
        guard case .bool(let value) = node.scalar else {
            error("expected true or false for \(key.quotedValue), found \(describe(node))", at: node.location)
            return nil
        }
        return value
    }

    /// The elements of a list, or nil (absent, or not a list and reported).
    func list(_ fields: Fields, _ key: String) -> [YAMLNode]? {
        guard let node = value(fields, key) else { return nil }
        guard let elements = node.sequence else {
            error("expected a list for \(key.quotedValue) (lines starting with `- `), found \(describe(node))", at: node.location)
            return nil
        }
        return elements
    }

    /// "a list", or for a scalar its type and text: `a string ("yes")`.
    private func describe(_ node: YAMLNode) -> String {
        guard case .scalar(let text, _) = node.kind else { return node.typeDescription }
        return "\(node.typeDescription) (\(text.quotedValue))"
    }
}

/// The known keys of one mapping and where the mapping starts (for "missing key" messages).
struct Fields {
    var location: SourceLocation
    var pairs: [String: YAMLPair]

    subscript(key: String) -> YAMLNode? { pairs[key]?.value }
}

private extension YAMLNode {
    /// A text of white space only (`name: "  "`), which shows as nothing: for a key that must
    /// be there, as good as missing.
    var isBlankText: Bool {
        guard case .scalar(let text, _) = kind else { return false }
        return text.isBlank
    }
}
