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

    /// The lines a command prints about its own work name paths as problems name them: a line
    /// feed, a tab or an escape in `--out` (or in the folder `tomo init` makes) is escaped, and
    /// the summary stays one line.
    @Test func aPathInASummaryLineStaysOnItsLine() throws {
        let work = try TemporaryFolder()
        let name = "o\nut\t\u{1B}[31m"
        let shown = "o\\u000aut\\u0009\\u001b[31m/"
        let created = runTomo(["init", name], in: work.url)
        #expect(created.status == 0, "\(created.error)")
        #expect(created.output.hasPrefix("Created a Tomo site in \(shown)\n"), "\(created.output.debugDescription)")
        // The output beside the site, not in it: a folder in the site is one more of its
        // files, and the second build would not find everything unchanged.
        let out = name + "-out"
        let shownOut = "o\\u000aut\\u0009\\u001b[31m-out/"
        let built = runTomo(["build", "--site", name, "--out", out], in: work.url)
        #expect(built.status == 0, "\(built.error)")
        #expect(built.output.hasPrefix("Built "), "\(built.output.debugDescription)")
        #expect(built.output.hasSuffix(" → \(shownOut)\n"), "\(built.output.debugDescription)")
        #expect(built.output.split(separator: "\n").count == 1, "\(built.output.debugDescription)")
        // The kept build state is one line per value, so an output whose path has a line feed
        // is built anew each time (only more work); a tab and an escape do not stop it.
        _ = runTomo(["build", "--site", name, "--out", "t\tab\u{1B}[31m"], in: work.url)
        let again = runTomo(["build", "--site", name, "--out", "t\tab\u{1B}[31m"], in: work.url)
        #expect(again.output.hasPrefix("Nothing changed since the last build: "), "\(again.output.debugDescription)")
        #expect(again.output.hasSuffix(" → t\\u0009ab\\u001b[31m/\n"), "\(again.output.debugDescription)")
        try work.write(name + "/content/pages/about.md", "---\ntitel: About\n---\nText\n")
        let failed = runTomo(["build", "--site", name, "--out", out], in: work.url)
        #expect(failed.status == 1)
        let last = try #require(failed.error.split(separator: "\n").last)
        #expect(last.hasPrefix("Build failed: ") && last.hasSuffix("; \(shownOut) is unchanged"), "\(failed.error.debugDescription)")
        let fresh = runTomo(["build", "--site", name, "--out", name + "-new"], in: work.url)
        let lastFresh = try #require(fresh.error.split(separator: "\n").last)
        #expect(lastFresh.hasSuffix("; no o\\u000aut\\u0009\\u001b[31m-new/ was made"), "\(fresh.error.debugDescription)")
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
