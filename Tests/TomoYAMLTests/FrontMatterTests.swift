import Testing
import TomoCore
@testable import TomoYAML

@Suite struct FrontMatterTests {
    @Test func frontMatterLinesAreTheFilesLines() throws {
        let file = "---\ntitle: About\nbad: a: b\n---\nHello **there**.\n"
        let split = try FrontMatter.split(Array(file.utf8), file: "about.md")
        #expect(split.body == "Hello **there**.\n")
        #expect(split.bodyLine == 5)
        let yaml = try #require(split.yaml)
        #expect(throws: DiagnosticList.self) { try YAMLParser.parse(yaml, file: "about.md") }
        do {
            _ = try YAMLParser.parse(yaml, file: "about.md")
        } catch {
            #expect(error.diagnostics.first?.location == SourceLocation(file: "about.md", line: 3, column: 7))
        }
    }

    @Test func frontMatterValuesAreRead() throws {
        let split = try FrontMatter.split(Array("---\r\ntitle: About us\r\n---\r\nBody\r\n".utf8), file: "about.md")
        let yaml = try #require(split.yaml)
        let pairs = try #require(try YAMLParser.parse(yaml, file: "about.md").mapping)
        #expect(pairs.first?.key == "title")
        #expect(pairs.first?.value.scalar == .string("About us"))
        #expect(pairs.first?.value.location.line == 2)
        #expect(split.body == "Body\r\n")
    }

    /// Lines ended by CR alone read as one line: said so, not "put `---` on the first line".
    @Test func linesEndedByACarriageReturnAloneAreNamed() {
        #expect(throws: Diagnostic(
            "the lines of this file end with a carriage return alone (CR, as old Mac files do): save it with LF line ends (CR LF also works)",
            at: SourceLocation(file: "about.md", line: 1, column: 1)
        )) { _ = try FrontMatter.split(Array("---\rtitle: About\r---\rHello\r".utf8), file: "about.md") }
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        let split = try FrontMatter.split(Array("# Title\n".utf8), file: "a.md")
        #expect(split.yaml == nil)
        #expect(split.body == "# Title\n")
    }

    @Test func missingClosingLineIsAnError() {
        #expect {
            _ = try FrontMatter.split(Array("---\ntitle: About\nHello\n".utf8), file: "about.md")
        } throws: { error in
            let diagnostic = error as? Diagnostic
            return diagnostic?.location == SourceLocation(file: "about.md", line: 1, column: 1)
                && diagnostic?.message == "the front matter opened on line 1 is not closed: add a line with only `---` after its last field"
        }
    }
}
