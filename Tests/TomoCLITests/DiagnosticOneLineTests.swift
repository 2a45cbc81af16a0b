import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// A problem prints as one line whatever the file name or value it quotes holds: a line feed
/// or a tab in a file name is escaped like any other control character (`\u000a`), in `tomo
/// check` and `tomo build` alike, while `--format json` keeps the real characters.
@Suite struct DiagnosticOneLineTests {
    /// A site whose page, root static file and profile names hold a line feed, a tab and U+0001.
    func site() throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        try work.write("content/pages/a\nb.md", "---\ntitle: A\n---\nText\n")
        try work.write("static/x\n.txt", "x\n")
        try work.write("content/users/t\tab.yaml", "name: T\n")
        try work.write("content/users/c\u{1}d.yaml", "name: C\n")
        return work
    }

    /// Every line a command printed on standard error is a whole problem.
    func expectOneLineEach(_ result: CommandResult, _ command: String) {
        #expect(result.status == 1, "\(command): \(result.error)")
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for line in lines where !line.hasPrefix("error: ") && !line.hasPrefix("warning: ") && !line.hasPrefix("Build failed: ") {
            Issue.record("\(command) printed a line that is no problem of its own: \(line.debugDescription)\n\(result.error)")
        }
        #expect(result.error.contains("error: content/pages/a\\u000ab.md:1:1: "), "\(command): \(result.error)")
        #expect(result.error.contains("error: static/x\\u000a.txt:1:1: "), "\(command): \(result.error)")
        #expect(result.error.contains("content/users/t\\u0009ab.yaml:1:1: "), "\(command): \(result.error)")
        #expect(result.error.contains("content/users/c\\u0001d.yaml:1:1: "), "\(command): \(result.error)")
    }

    @Test func aFileNameWithALineFeedOrTabStaysOnTheLineOfItsProblem() throws {
        let work = try site()
        expectOneLineEach(runTomo(["check"], in: work.url), "check")
        expectOneLineEach(runTomo(["build"], in: work.url), "build")
        let gnu = runTomo(["check", "--format", "gnu"], in: work.url)
        #expect(gnu.error.contains("content/pages/a\\u000ab.md:1:1: error: "), "\(gnu.error)")
    }

    @Test func jsonKeepsTheRealCharacters() throws {
        let work = try site()
        let result = runTomo(["check", "--format", "json"], in: work.url)
        let problems = try #require(try JSONParser.parse(bytes: Array(result.output.utf8), file: "stdout").arrayValue)
        let files = Set(problems.compactMap { $0["file"]?.stringValue })
        #expect(files.isSuperset(of: ["content/pages/a\nb.md", "static/x\n.txt", "content/users/t\tab.yaml", "content/users/c\u{1}d.yaml"]), "\(files)")
    }

    @Test func aDiagnosticDescribesItselfOnOneLine() {
        let problem = Diagnostic("name \"a\tb\nc\" is wrong", at: SourceLocation(file: "content/pages/a\nb.md", line: 1, column: 1))
        #expect(problem.description == "content/pages/a\\u000ab.md:1:1: name \"a\\u0009b\\u000ac\" is wrong")
        #expect(problem.message == "name \"a\tb\nc\" is wrong")
    }
}
