import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// `tomo check --format gnu|json`: the forms problem matchers and programs read, with the same
/// problems in the same order as the default form.
@Suite struct CheckFormatTests {
    /// A site with three errors in two files (an unknown key, so no title, and a bad colour)
    /// and a warning.
    func brokenSite() throws -> TemporaryFolder {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        try work.write("content/users/example.yaml", "name: Example\nitemColor: pruple\n")
        try work.write("content/pages/about.md", "---\ntitel: About\n---\nText\n")
        return work
    }

    /// The lines of each problem the default form prints.
    func defaultProblems(_ site: URL) -> [String] {
        runTomo(["check"], in: site).error.split(separator: "\n").map(String.init)
    }

    @Test func gnuPutsTheLocationFirstAsCompilersDo() throws {
        let site = try brokenSite()
        let result = runTomo(["check", "--format", "gnu"], in: site.url)
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n").map(String.init)
        let pattern = /^([^:]+):(\d+):(\d+): (error|warning): (.+)$/
        #expect(lines.count == defaultProblems(site.url).count)
        #expect(lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("content/users/example.yaml:2:12: error: unknown colour \"pruple\"") }, "\(lines)")
        #expect(result.output.contains("3 errors"))
    }

    @Test func jsonIsOneArrayOfEveryProblemWithItsPlace() throws {
        let site = try brokenSite()
        let result = runTomo(["check", "--format", "json"], in: site.url)
        #expect(result.status == 1)
        let problems = try #require(try JSONParser.parse(bytes: Array(result.output.utf8), file: "stdout").arrayValue)
        #expect(problems.count == defaultProblems(site.url).count)
        let errors = problems.filter { $0["severity"] == "error" }
        #expect(errors.map { $0["file"]?.stringValue ?? "" } == ["content/pages/about.md", "content/pages/about.md", "content/users/example.yaml"])
        #expect(errors.last?["line"] == 2 && errors.last?["column"] == 12)
        #expect(errors.last?["message"]?.stringValue?.hasPrefix("unknown colour \"pruple\"") == true)
        let clean = try TemporaryFolder()
        #expect(runTomo(["init"], in: clean.url).status == 0)
        try clean.write("content/users/example.yaml", "name: Example\n")
        let warningsOnly = runTomo(["check", "--format", "json"], in: clean.url)
        #expect(warningsOnly.status == 0)
        #expect(try JSONParser.parse(bytes: Array(warningsOnly.output.utf8), file: "stdout").arrayValue?.allSatisfy { $0["severity"] == "warning" } == true)
    }

    @Test func anUnknownFormatIsWrongUsage() throws {
        let site = try brokenSite()
        let result = runTomo(["check", "--format", "jsn"], in: site.url)
        #expect(result.status == 2)
        #expect(result.error.contains("did you mean \"json\"?"), "\(result.error)")
    }
}
