import Testing
import TomoCore
@testable import TomoYAML

/// Parses `text` as the file `test.yaml`, returning the problems it reports.
private func problems(_ text: String) -> [Diagnostic] {
    do {
        _ = try YAMLParser.parse(Array(text.utf8), file: "test.yaml")
        return []
    } catch {
        return error.diagnostics
    }
}

private func parse(_ text: String) throws -> YAMLNode {
    try YAMLParser.parse(Array(text.utf8), file: "test.yaml")
}

@Suite struct YAMLParserTests {
    @Test func mappingKeepsKeyOrderAndLocations() throws {
        let root = try parse("name: Alice\nlinks:\n  github: https://github.com/alice\nitems:\n  - text: Hi\n")
        let pairs = try #require(root.mapping)
        #expect(pairs.map(\.key) == ["name", "links", "items"])
        #expect(pairs[0].value.location == SourceLocation(file: "test.yaml", line: 1, column: 7))
        #expect(pairs[2].keyLocation == SourceLocation(file: "test.yaml", line: 4, column: 1))
        let item = try #require(pairs[2].value.sequence?.first?.mapping?.first)
        #expect(item.value.location.line == 5)
        #expect(item.value.location.column == 11)
    }

    @Test func scalarStylesAreKept() throws {
        let pairs = try #require(try parse("a: plain\nb: 'single'\nc: \"double\"\nd: |\n  line\ne: >\n  folded\n").mapping)
        #expect(pairs.map(\.value.kind) == [
            .scalar("plain", .plain), .scalar("single", .singleQuoted), .scalar("double", .doubleQuoted),
            .scalar("line\n", .literal), .scalar("folded\n", .folded),
        ])
    }

    @Test func syntaxErrorNamesLibyamlProblemAndPlace() {
        let found = problems("name: Alice\nbio: a: b\n")
        #expect(found.count == 1)
        #expect(found.first?.location == SourceLocation(file: "test.yaml", line: 2, column: 7))
        #expect(found.first?.message == "YAML syntax error: mapping values are not allowed in this context: put a value that contains \": \" in quotes")
    }

    @Test func everyDuplicateKeyIsReported() {
        let found = problems("name: Alice\nbio: x\nname: Bob\nbio: y\n")
        #expect(found.map(\.location?.line) == [3, 4])
        #expect(found.first?.message == "duplicate key \"name\" (first on line 1): keep only one")
        #expect(found.first?.location?.column == 1)
    }

    @Test func tabIndentationSaysUseSpaces() {
        let found = problems("links:\n\tgithub: https://github.com/alice\n")
        #expect(found.count == 1)
        #expect(found.first?.message == "a tab is used for indentation: use spaces, not tabs")
        #expect(found.first?.location == SourceLocation(file: "test.yaml", line: 2, column: 1))
    }

    @Test func invalidUTF8IsLocated() {
        var bytes = Array("name: Alice\nbio: caf".utf8)
        bytes.append(0xE9)  // Latin-1 é
        bytes += Array("\n".utf8)
        #expect(throws: DiagnosticList.self) { try YAMLParser.parse(bytes, file: "test.yaml") }
        do {
            _ = try YAMLParser.parse(bytes, file: "test.yaml")
        } catch {
            #expect(error.diagnostics.first?.location == SourceLocation(file: "test.yaml", line: 2, column: 9))
            #expect(error.diagnostics.first?.message == "invalid UTF-8 (byte 0xE9): save the file as UTF-8")
        }
    }

    @Test func emptyAndCommentOnlyFilesAreEmpty() {
        for text in ["", "\n\n", "# only a comment\n", "\u{FEFF}\n"] {
            let found = problems(text)
            #expect(found.first?.message == "the file is empty: write at least one `key: value` line")
            #expect(found.first?.location == SourceLocation(file: "test.yaml", line: 1, column: 1))
        }
    }

    @Test func anchorsAndAliasesAreRefused() {
        let anchor = problems("a: &x hello\nb: *x\n")
        #expect(anchor.first?.message == "anchors (&x) are not supported: write the value out in full")
        #expect(anchor.first?.location == SourceLocation(file: "test.yaml", line: 1, column: 4))
    }

    /// A tag that would make the value something else than tomo reads it as is refused at its
    /// place; the ones that say what the value is read as anyway are taken.
    @Test(arguments: [
        ("a: !!binary aGVsbG8=\n", "!!binary"), ("a: !!null Z\n", "!!null"), ("a: !foo x\n", "!foo"),
        ("a: !!python/object:os.system x\n", "!!python/object:os.system"), ("a: !!int 12\n", "!!int"),
        ("a: !!set {x}\n", "!!set"), ("a: !!omap [x: 1]\n", "!!omap"),
    ])
    func aTagTomoDoesNotApplyIsRefused(yaml: String, written: String) {
        let found = problems(yaml)
        #expect(found.first?.message == "the tag \(written) is not supported: remove it (quote a value to keep it as text)", "\(found)")
        #expect(found.first?.location?.line == 1 && found.first?.location?.column == 4)
    }

    @Test func theTagsThatSayWhatAValueIsAnywayAreTaken() {
        #expect(problems("a: !!str 12\nb: ! x\nc: !!map {x: 1}\nd: !!seq [1]\n").isEmpty)
    }

    /// libyaml ends a line at a raw U+2028 or U+2029, YAML 1.2 readers do not: refused at its
    /// own line and column (counting line feeds only), and taken written as an escape.
    @Test(arguments: ["\u{2028}", "\u{2029}"])
    func aRawLineSeparatorIsRefusedAtItsPlace(separator: String) throws {
        let found = problems("a: 1\nname: \"x\(separator)\(separator)y\"\nb: 2\n")
        #expect(found.count == 1 && found.first?.location == SourceLocation(file: "test.yaml", line: 2, column: 9), "\(found)")
        #expect(found.first?.message.hasSuffix("inside double quotes") == true)
        #expect(problems("name: \"x\\u2028y\\u2029\"\n").isEmpty)
    }

    @Test func secondDocumentIsRefused() {
        let found = problems("name: a\n---\nname: b\n")
        #expect(found.first?.location?.line == 2)
        #expect(found.first?.message.hasPrefix("a second YAML document starts here") == true)
    }

    /// Told where the quote opens, not at the end of the file where libyaml gave up.
    @Test func unclosedQuoteIsASyntaxErrorWhereItOpens() {
        let found = problems("name: \"Alice\nbio: x\n")
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("YAML syntax error: found unexpected end of stream") == true)
        #expect(found.first.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == "1:7")
    }

    /// `name:Alice` is one word to YAML, which runs on into the next line: the key without the
    /// space after its colon is told, at its line, whichever line comes next.
    @Test func aKeyWithoutTheSpaceAfterItsColonIsToldAtItsLine() {
        for (text, line) in [("name:Alice\nbio: hi\n", 1), ("bio: hi\nname:Alice\n", 2), ("name:Alice\nbio: \"open\n", 1)] {
            let found = problems(text)
            #expect(found.count == 1, "\(text)")
            #expect(found.first?.message == "YAML syntax error: a key needs a space after its colon: write `name: …`, not `name:…`", "\(text)")
            #expect(found.first?.location?.line == line, "\(text)")
        }
        // A web address in a long text is no key.
        #expect(problems("bio: |\n  see\n  https://example.com\nname: A\n").isEmpty)
    }

    /// A key without its ':' is told at its own line, not at the next one's.
    @Test func aKeyWithoutItsColonIsToldAtItsLine() {
        let found = problems("name: Alice\nbio hello there\nitemColor: blue\n")
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("YAML syntax error: could not find expected ':'") == true)
        #expect(found.first?.location?.line == 2)
    }
}

@Suite struct ByteOrderMarkTests {
    @Test func leadingByteOrderMarkIsAllowed() throws {
        let root = try YAMLParser.parse(Array("\u{FEFF}name: Alice\n".utf8), file: "test.yaml")
        #expect(root.mapping?.first?.key == "name")
    }
}
