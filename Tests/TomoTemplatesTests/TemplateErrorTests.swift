import Foundation
import Testing
import TomoCore
@testable import TomoTemplates
import TomoTestSupport

@Suite struct TemplateErrorTests {
    @Test(arguments: [
        ("<p>{{name</p>", "page.mustache:1:4: unclosed tag: end it with }}"),
        ("a\n  {{{html}}", "page.mustache:2:3: unclosed triple mustache: end it with }}}"),
        ("{{! never closed", "page.mustache:1:1: unclosed comment: end it with }}"),
        ("x\n{{#items}}\n<li>{{.}}</li>\n", "page.mustache:2:1: {{#items}} is never closed: add {{/items}}"),
        ("{{^empty}}none", "page.mustache:1:1: {{^empty}} is never closed: add {{/empty}}"),
        ("{{#a}}\n  {{#b}}\n  {{/a}}\n{{/b}}", "page.mustache:3:3: {{/a}} does not match {{#b}} opened at line 2, column 3: close sections in the reverse order they were opened"),
        ("text {{/a}}", "page.mustache:1:6: {{/a}} closes nothing: no section named \"a\" is open"),
        ("{{=<% %>", "page.mustache:1:1: unclosed delimiter change: end it with =}}"),
        ("{{=<%=}}", "page.mustache:1:1: invalid delimiter change: give two delimiters separated by a space, without '=', like {{=<% %>=}}"),
        ("{{=a= b=}}", "page.mustache:1:1: invalid delimiter change: give two delimiters separated by a space, without '=', like {{=<% %>=}}"),
        ("a {{ }} b", "page.mustache:1:3: empty tag: put a name between the delimiters"),
        ("{{first name}}", "page.mustache:1:1: tag name \"first name\" contains white space: names are single words like user.name"),
        ("{{<layout}}{{$a}}x{{/layout}}", "page.mustache:1:19: {{/layout}} does not match {{$a}} opened at line 1, column 12: close sections in the reverse order they were opened"),
        ("日本語 {{#x}}", "page.mustache:1:5: {{#x}} is never closed: add {{/x}}"),
    ])
    func namesTheTemplateLineAndColumn(source: String, message: String) {
        #expect(compileError(source) == message)
    }

    @Test func errorsWithChangedDelimitersPointAtTheTagAndWriteTagsWithThem() {
        #expect(compileError("{{=<% %>=}}\n<%#a%>\n<%/b%>") == "page.mustache:3:1: <%/b%> does not match <%#a%> opened at line 2, column 1: close sections in the reverse order they were opened")
        // `{{/items}}` is text under `<% %>`: the fix names the tag that closes it.
        #expect(compileError("{{=<% %>=}}\n<%#items%>\n{{/items}}\n") == "page.mustache:2:1: <%#items%> is never closed: add <%/items%>")
        // The delimiters in force at the end of the template write the closing tag.
        #expect(compileError("{{#items}}\n{{=[ ]=}}\n") == "page.mustache:1:1: {{#items}} is never closed: add [/items]")
        #expect(compileError("{{=| |=}}|/x|") == "page.mustache:1:10: |/x| closes nothing: no section named \"x\" is open")
    }

    @Test func aTemplateFileIsReadPastAByteOrderMarkAndNamesItsFirstByteThatIsNotUTF8() throws {
        let temporary = try TemporaryFolder(prefix: "tomo-templates")
        let folder = temporary.url
        try Data([0xEF, 0xBB, 0xBF] + Array("<li>{{name}}</li>".utf8)).write(to: folder.appendingPathComponent("card.mustache"))
        let library = try TemplateLibrary(directory: folder, displayPrefix: "templates/")
        #expect(String(decoding: try library.render("card", context: .object(["name": .string("A")])), as: UTF8.self) == "<li>A</li>")
        try Data(Array("line one\nline two \u{e9}".utf8) + [0xFF] + Array(" here\n".utf8)).write(to: folder.appendingPathComponent("card.mustache"))
        do {
            _ = try TemplateLibrary(directory: folder, displayPrefix: "templates/")
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["templates/card.mustache:2:11: invalid UTF-8 (byte 0xFF): save the template as UTF-8"])
        }
    }

    /// A template of many short lines (an inline SVG, a style sheet) is gathered into one text
    /// node line by line: each line copied what came before, and 200,000 lines took minutes.
    @Test(.timeLimit(.minutes(1))) func aTemplateOfManyLinesCompilesAtOnce() throws {
        let line = "<p>line of text here</p>\n"
        let source = String(repeating: line, count: 200_000)
        let template = try Template(source: source, name: "big")
        #expect(try TemplateLibrary().render(template, context: .null).count == source.utf8.count)
    }

    @Test func aPartialThatIncludesItselfForeverIsAnErrorNotACrash() throws {
        let library = try TemplateLibrary(sources: ["loop": "x{{>loop}}"])
        let page = try Template(source: "{{>loop}}", name: "page")
        #expect(throws: Diagnostic.self) { try library.render(page, context: .object([:])) }
    }

    @Test func aLibraryReportsEveryBrokenTemplate() {
        do {
            _ = try TemplateLibrary(sources: ["a": "{{#x}}", "b": "fine", "c": "{{y"])
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "a:1:1: {{#x}} is never closed: add {{/x}}",
                "c:1:1: unclosed tag: end it with }}",
            ])
        }
    }

    @Test func aFolderLibraryNamesTheFileInErrors() throws {
        let temporary = try TemporaryFolder(prefix: "tomo-templates")
        let folder = temporary.url
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("parts"), withIntermediateDirectories: true)
        try "ok {{name}}".write(to: folder.appendingPathComponent("parts/card.mustache"), atomically: true, encoding: .utf8)
        try "\n\n {{#x}}".write(to: folder.appendingPathComponent("broken.mustache"), atomically: true, encoding: .utf8)
        do {
            _ = try TemplateLibrary(directory: folder, displayPrefix: "templates/")
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["templates/broken.mustache:3:2: {{#x}} is never closed: add {{/x}}"])
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("broken.mustache"))
        let library = try TemplateLibrary(directory: folder)
        #expect(library.names == ["parts/card"])
        let page = try Template(source: "{{>parts/card}}", name: "page")
        #expect(String(decoding: try library.render(page, context: .object(["name": .string("A")])), as: UTF8.self) == "ok A")
    }

    @Test func aSiteTemplateReplacesTheBuiltInOneByName() throws {
        let builtIn = try TemplateLibrary(sources: ["card": "built-in", "layout": "[{{>card}}]"])
        let site = try TemplateLibrary(sources: ["card": "site's own"])
        let merged = builtIn.overlaid(by: site)
        #expect(String(decoding: try merged.render("layout", context: .null), as: UTF8.self) == "[site's own]")
        #expect(throws: Diagnostic.self) { try merged.render("layuot", context: .null) }
    }

    @Test func aCompiledTemplateRendersManyContexts() throws {
        let template = try Template(source: "{{#users}}{{name}},{{/users}}", name: "list")
        let library = TemplateLibrary()
        for count in [0, 1, 50] {
            let users = JSONValue.array((0..<count).map { .object(["name": .string("u\($0)")]) })
            let output = try library.render(template, context: .object(["users": users]))
            #expect(String(decoding: output, as: UTF8.self).split(separator: ",").count == count)
        }
    }

    @Test func listsThePartialsATemplateNames() throws {
        let template = try Template(source: "{{>a}}{{#s}}{{>b}}{{/s}}{{<c}}{{$x}}{{>d}}{{/x}}{{/c}}{{>*dynamic}}", name: "t")
        #expect(Set(template.references.map(\.name)) == ["a", "b", "c", "d"])
    }
}
