import Foundation
import Synchronization
import Testing
@testable import TomoCLI
import TomoTestSupport

@Suite struct TemplateRenderTests {
    @Test func printsTheRenderedTemplateWithNoNewlineAdded() throws {
        let folder = try TemporaryFolder()
        try folder.write("card.mustache", "<b>{{name}}</b>")
        let result = runTomo(["template", "render", "card.mustache", "--data", #"{"name": "A & B"}"#], in: folder.url)
        #expect(result.status == 0)
        #expect(result.output == "<b>A &amp; B</b>")
        #expect(result.error.isEmpty)
    }

    /// To a pipe, every byte as `tomo build` would write it, control characters of the template
    /// and of the data included; on a terminal they show escaped, as all of tomo's output does.
    @Test func printsControlCharactersExactlyToAPipeAndEscapedOnATerminal() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "a\u{01}{{{text}}}\u{7F}")
        let arguments = ["template", "render", "t.mustache", "--data", #"{"text": "\u0000\u001b[31m\u0085"}"#]
        let piped = try ProcessRun.tomo(arguments, in: folder.url)
        #expect(piped.output == Array("a\u{01}\u{00}\u{1B}[31m\u{85}\u{7F}".utf8), "\(piped)")

        let shown = Mutex("")
        let terminal = Console(outputIsTerminal: true) { stream, text in if stream == .output { shown.withLock { $0 += text } } }
        #expect(TomoCommandLine.run(arguments, console: terminal, workingDirectory: folder.url) == 0)
        let text = shown.withLock { $0 }
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        #expect(text.hasPrefix("a") && text.contains("[31m"))
    }

    @Test func resolvesPartialsFromAFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("page.mustache", "{{<layout}}{{$body}}{{>parts/item}}{{/body}}{{/layout}}")
        try folder.write("theme/layout.mustache", "<main>{{$body}}{{/body}}</main>")
        try folder.write("theme/parts/item.mustache", "{{#items}}[{{.}}]{{/items}}")
        let result = runTomo(["template", "render", "page.mustache", "--data", #"{"items": [1, 2]}"#, "--partials", "theme"], in: folder.url)
        #expect(result.output == "<main>[1][2]</main>")
    }

    @Test func readsDataFromAFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "{{greeting}}")
        try folder.write("view.json", #"{"greeting": "こんにちは"}"#)
        #expect(runTomo(["template", "render", "t.mustache", "--data", "@view.json"], in: folder.url).output == "こんにちは")
    }

    @Test func templateErrorsNameFileLineAndColumnAndExitOne() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "ok\n  {{#list}}\n")
        let result = runTomo(["template", "render", "t.mustache", "--data", "{}"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.error == "error: t.mustache:2:3: {{#list}} is never closed: add {{/list}}\n")
        #expect(result.output.isEmpty)
    }

    @Test func partialErrorsNameThePartialFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "{{>p}}")
        try folder.write("parts/p.mustache", "{{/x}}")
        let result = runTomo(["template", "render", "t.mustache", "--data", "{}", "--partials", "parts"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.error.contains("parts/p.mustache:1:1: {{/x}} closes nothing"))
    }

    /// Wrong usage (exit 2), as any bad option value; a bad @FILE is a problem with the input (1).
    @Test func badDataIsAnErrorWithItsLocation() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "x")
        let result = runTomo(["template", "render", "t.mustache", "--data", "{\"a\": [1,}"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.error == "error: --data:1:10: unexpected character '}': expected a JSON value\nusage: tomo template render FILE --data JSON [--partials DIR]\n")
        try folder.write("view.json", "{\"a\": [1,}")
        let file = runTomo(["template", "render", "t.mustache", "--data", "@view.json"], in: folder.url)
        #expect(file.status == 1)
        #expect(file.error == "error: view.json:1:10: unexpected character '}': expected a JSON value\n")
    }

    @Test func filesThatCannotBeReadSayWhyAndWhatToDo() throws {
        let folder = try TemporaryFolder()
        #expect(runTomo(["template", "render", "nope.mustache", "--data", "{}"], in: folder.url).error == "error: nope.mustache: cannot read this file: there is no such file\n")
        try folder.write("t.mustache", "x")
        #expect(runTomo(["template", "render", "t.mustache", "--data", "{}", "--partials", "none"], in: folder.url).error.contains("--partials none: no such folder"))
        #expect(mkfifo(folder.url.appendingPathComponent("pipe").path, 0o644) == 0)
        #expect(runTomo(["template", "render", "t.mustache", "--data", "{}", "--partials", "pipe"], in: folder.url).error == "error: --partials pipe: it is a named pipe (FIFO), not a folder: give the folder that holds the partials\n")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("dir.mustache"), withIntermediateDirectories: true)
        #expect(runTomo(["template", "render", "dir.mustache", "--data", "{}"], in: folder.url).error == "error: dir.mustache: cannot read this file: it is a folder, not a regular file: replace it with a file\n")
        #expect(runTomo(["template", "render", "t.mustache", "--data", "@dir.mustache"], in: folder.url).error == "error: --data @dir.mustache: cannot read this file: it is a folder, not a regular file: replace it with a file\n")
    }

    /// As Notepad saves them: the mark is not text of the template or the data.
    @Test func aByteOrderMarkBeforeTheTemplateOrTheDataIsReadPast() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "\u{FEFF}<b>{{name}}</b>")
        try folder.write("view.json", "\u{FEFF}{\"name\": \"A\"}")
        let result = runTomo(["template", "render", "t.mustache", "--data", "@view.json"], in: folder.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "<b>A</b>")
    }

    @Test func theRealBinaryPrintsExactlyTheOutput() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "line\n{{#xs}}\n- {{.}}\n{{/xs}}\nend")
        let result = try runBinary(["template", "render", "t.mustache", "--data", #"{"xs": [1, 2.5]}"#], in: folder.url)
        #expect(result.status == 0)
        #expect(result.output == "line\n- 1\n- 2.5\nend")
        let usage = try runBinary(["template", "render"], in: folder.url)
        #expect(usage.status == 2)
    }
}
