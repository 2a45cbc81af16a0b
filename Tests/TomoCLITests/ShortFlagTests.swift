import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// The one-letter options, declared in the option table, read by the parser and shown by help.
@Suite struct ShortFlagTests {
    private func parse(_ words: [String]) throws -> Invocation? {
        try TomoCommandLine.parse(words, console: Console { _, _ in }, workingDirectory: URL(fileURLWithPath: "/"))
    }

    @Test func shortFlagsMeanTheirLongOptions() throws {
        let build = try #require(try parse(["build", "-o", "out", "-s", "site"]))
        #expect(build.option("out") == "out")
        #expect(build.siteOption == "site")
        let serve = try #require(try parse(["-s", "site", "serve", "-p", "3000"]))
        #expect(serve.option("port") == "3000")
        #expect(serve.siteOption == "site")
        let remove = try #require(try parse(["post", "rm", "alice/x", "-y"]))
        #expect(remove.flag("yes"))
        #expect(runTomo(["-V"]).output == "tomo \(TomoCommandLine.version)\n")
    }

    @Test func aShortAndALongSpellingOfOneOptionAreGivenTwice() {
        let result = runTomo(["build", "-o", "a", "--out", "b"])
        #expect(result.status == 2)
        #expect(result.error.contains("--out is given twice"))
    }

    @Test func noTwoOptionsOfACommandShareALetterAndHelpShowsEach() {
        for command in TomoCommandLine.commands {
            let options = command.options + TomoCommandLine.commonOptions
            let letters = options.compactMap(\.short)
            #expect(Set(letters).count == letters.count, "tomo \(command.name)")
            let help = runTomo(command.path + ["--help"]).output
            for option in options {
                #expect(help.contains(option.label), "tomo \(command.name): \(option.label)")
            }
        }
        #expect(TomoCommandLine.commands.flatMap(\.options).contains { $0.short != nil })
    }

    @Test func anUnknownShortFlagIsNamedAsTyped() {
        let result = runTomo(["serve", "-o", "x"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: unknown option -o for `tomo serve`\n"))
        #expect(runTomo(["-x", "build"]).error.hasPrefix("error: unknown option -x\n"))
    }

    @Test func suggestionsQuoteTheFlagAsWritten() {
        let long = runTomo(["build", "--ot", "x"])
        #expect(long.status == 2)
        #expect(long.error.contains("unknown option --ot for `tomo build` (did you mean \"--out\"?)"))
        let single = runTomo(["build", "-out", "x"])
        #expect(single.error.contains("unknown option -out for `tomo build` (did you mean \"--out\"?)"))
    }
}
