import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

@Suite struct ArgumentParsingTests {
    @Test func unknownCommandSuggestsTheClosestAndExitsTwo() {
        let result = runTomo(["tempalte", "render"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown command `tempalte` (did you mean \"template\"?)"))
    }

    @Test func unknownSubcommandSuggestsTheClosest() {
        let result = runTomo(["template", "rendr"])
        #expect(result.status == 2)
        #expect(result.error.contains("(did you mean \"render\"?)"))
    }

    @Test func unknownOptionSuggestsTheClosestAndShowsUsage() {
        let result = runTomo(["template", "render", "x.mustache", "--dat", "{}"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown option --dat for `tomo template render` (did you mean \"--data\"?)"))
        #expect(result.error.contains("usage: tomo template render FILE --data JSON [--partials DIR]"))
    }

    @Test func missingRequiredOptionOrArgumentIsAUsageError() {
        #expect(runTomo(["template", "render", "x.mustache"]).status == 2)
        #expect(runTomo(["template", "render", "--data", "{}"]).error.contains("missing FILE"))
        #expect(runTomo(["template", "render", "x", "--data"]).error.contains("--data needs a value"))
        #expect(runTomo(["template", "render", "a", "b", "--data", "{}"]).error.contains("unexpected argument \"b\""))
    }

    @Test func helpListsEveryCommand() {
        let result = runTomo(["help"])
        #expect(result.status == 0)
        for command in TomoCommandLine.commands {
            #expect(result.output.contains(command.name))
        }
        #expect(runTomo([]).output == result.output)
        #expect(runTomo(["--help"]).output == result.output)
    }

    @Test func everyCommandHasHelp() {
        for command in TomoCommandLine.commands {
            let result = runTomo(command.path + ["--help"])
            #expect(result.status == 0, "tomo \(command.name) --help")
            #expect(result.output.contains("Usage: \(command.usage)"))
            #expect(runTomo(["help"] + command.path).output == result.output)
        }
    }

    @Test func versionPrintsTheVersion() {
        #expect(runTomo(["--version"]).output == "tomo \(TomoCommandLine.version)\n")
    }

    @Test func siteOptionMayStandBeforeOrAfterTheCommand() throws {
        let folder = try TemporaryFolder()
        try folder.write("t.mustache", "{{x}}")
        let before = runTomo(["--site", "/nowhere", "template", "render", "t.mustache", "--data", #"{"x":1}"#], in: folder.url)
        let after = runTomo(["template", "render", "t.mustache", "--site=/nowhere", "--data", #"{"x":1}"#], in: folder.url)
        #expect(before.status == 0 && after.status == 0)
        #expect(before.output == "1" && after.output == "1")
    }

    @Test func doubleDashEndsOptions() throws {
        let folder = try TemporaryFolder()
        try folder.write("--odd.mustache", "odd")
        let result = runTomo(["template", "render", "--data", "{}", "--", "--odd.mustache"], in: folder.url)
        #expect(result.output == "odd")
    }
}
