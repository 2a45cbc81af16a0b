import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// What commands say when the answer is not the plain one: a repeated report, a profile that
/// exists already, nobody to discover, a failed build.
@Suite struct GuidingMessageTests {
    private func site() throws -> TemporaryFolder {
        try TemporaryFolder(["content/site.yaml": "title: Test\n"])
    }

    private func tomo(_ arguments: String..., in folder: TemporaryFolder) -> CommandResult {
        runTomo(arguments, in: folder.url)
    }

    @Test func aSecondReportWithANewReasonUpdatesItAndKeepsItsDate() throws {
        let folder = try site()
        _ = tomo("user", "add", "alice", in: folder)
        _ = tomo("user", "add", "bob", in: folder)
        try folder.writePost("alice/sunset")
        #expect(tomo("report", "bob", "alice/sunset", "--reason", "stolen photo", in: folder).output == "bob reported alice/sunset\n")
        let first = try JSONParser.parse(tomo("reports", "--json", in: folder).output, file: "stdout")

        let again = tomo("report", "bob", "alice/sunset", "--reason", "stolen photo", in: folder)
        #expect(again.status == 0)
        #expect(again.output.contains("bob already reported alice/sunset for that reason"), "\(again.output)")

        let updated = tomo("report", "bob", "alice/sunset", "--reason", "not her photo", in: folder)
        #expect(updated.status == 0)
        #expect(updated.output.contains("now gives the reason \"not her photo\" (it was \"stolen photo\")"), "\(updated.output)")
        let reports = try JSONParser.parse(tomo("reports", "--json", in: folder).output, file: "stdout")
        #expect(reports.arrayValue?.count == 1)
        #expect(reports.arrayValue?.first?["reason"] == .string("not her photo"))
        #expect(reports.arrayValue?.first?["created"] == first.arrayValue?.first?["created"])
    }

    @Test(arguments: ["yml", "yaml", "json"]) func userAddNamesTheProfileThatExistsAndWritesNoSecondOne(format: String) throws {
        let folder = try site()
        let existing = "content/users/erin.\(format)"
        try folder.write(existing, format == "json" ? "{\"name\": \"Erin\"}\n" : "name: Erin\n")
        let result = tomo("user", "add", "erin", in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(existing), "\(result.output)")
        let profiles = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("content/users").path)
        #expect(profiles == ["erin.\(format)"])
        if format == "yml" { #expect(result.output.contains("rename it to content/users/erin.yaml")) }
        #expect(tomo("user", "list", "--json", in: folder).output.contains("\"erin\""))
    }

    @Test func discoverSaysWhyNobodyIsListed() throws {
        let folder = try site()
        for handle in ["alice", "bob", "carl", "dana"] { _ = tomo("user", "add", handle, in: folder) }
        _ = tomo("user", "set", "alice", "--location", "35.6812,139.7671", "--gender", "f", "--seeking", "m", in: folder)
        func nobody() -> String {
            let result = tomo("discover", "alice", in: folder)
            #expect(result.status == 0)
            return result.output
        }
        // Nobody has the gender alice seeks.
        #expect(nobody().contains("no other user has the gender m"), "\(nobody())")
        // One has, without a location.
        _ = tomo("user", "set", "bob", "--gender", "m", in: folder)
        #expect(nobody().contains("bob has no location"), "\(nobody())")
        // One is 3 km away.
        _ = tomo("user", "set", "bob", "--location", "35.7082,139.7671", in: folder)
        #expect(nobody().contains("the nearest, bob, is 3.00 km away: try --within 3.01"), "\(nobody())")
        // Near, but picked already.
        _ = tomo("user", "set", "carl", "--location", "35.6850,139.7671", "--gender", "m", in: folder)
        _ = tomo("pick", "alice", "carl", "reject", in: folder)
        #expect(nobody().contains("alice picked carl already"), "\(nobody())")
        // Near, and in a block.
        _ = tomo("user", "set", "dana", "--location", "35.6850,139.7671", "--gender", "m", in: folder)
        _ = tomo("block", "dana", "alice", in: folder)
        let both = nobody()
        #expect(both.contains("2 users within 1.0 km: alice picked carl already; dana is in a block with alice"), "\(both)")
        // A limit of 0 is its own reason.
        #expect(tomo("discover", "alice", "--within", "5", "--limit", "0", in: folder).output.contains("--limit 0"))
    }

    /// The hint names only a user `discover` would list at the radius it suggests: never one
    /// picked already or in a block, however far.
    @Test func discoverHintsOnlyAtUsersItCouldList() throws {
        let folder = try site()
        for handle in ["a", "b"] { _ = tomo("user", "add", handle, in: folder) }
        _ = tomo("user", "set", "a", "--location", "35.6812,139.7671", "--gender", "f", "--seeking", "m", in: folder)
        _ = tomo("user", "set", "b", "--location", "35.68205,139.7671", "--gender", "m", in: folder)
        #expect(tomo("discover", "a", "--within", "0.01", in: folder).output.contains("the nearest, b, is 0.09 km away: try --within 0.10"))
        #expect(tomo("pick", "a", "b", "accept", in: folder).status == 0)
        #expect(tomo("block", "a", "b", in: folder).status == 0)

        // b is out of range, picked and in a block: nobody is left to suggest, and it says so.
        let leftOut = tomo("discover", "a", "--within", "0.01", in: folder)
        #expect(leftOut.status == 0)
        #expect(leftOut.output == "nobody within 0.01 km of a: every user of the gender m that a seeks is left out, near or far: a picked b already\n", "\(leftOut.output)")

        // Farther away than b, but one discover could list: the hint names c, and the radius it
        // suggests lists c.
        _ = tomo("user", "add", "c", in: folder)
        _ = tomo("user", "set", "c", "--location", "35.6830,139.7671", "--gender", "m", in: folder)
        let hint = tomo("discover", "a", "--within", "0.01", in: folder).output
        #expect(hint.contains("the nearest, c, is 0.20 km away: try --within 0.21"), "\(hint)")
        #expect(tomo("discover", "a", "--within", "0.21", in: folder).output == "c  0.20 km\n")

        // One who could be listed but has no location is named before "left out".
        _ = tomo("block", "c", "a", in: folder)
        _ = tomo("user", "add", "d", in: folder)
        _ = tomo("user", "set", "d", "--gender", "m", in: folder)
        let unplaced = tomo("discover", "a", "--within", "0.01", in: folder).output
        #expect(unplaced.contains("d has no location"), "\(unplaced)")
        #expect(!unplaced.contains("try --within"), "\(unplaced)")
    }

    @Test func userListIsAlignedUnderAHeaderByDisplayWidth() throws {
        let folder = try site()
        _ = tomo("user", "add", "alice", "--name", "Alice Example", in: folder)
        _ = tomo("user", "add", "ken", "--name", "健一 山田", in: folder)
        _ = tomo("user", "add", "emoji_fan", "--name", "🎉 Party", in: folder)
        _ = tomo("user", "add", "nobody", in: folder)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/users/nobody.yaml"))
        try folder.writePost("ken/one")
        try folder.writePost("ken/two")
        _ = tomo("follow", "alice", "ken", in: folder)
        let lines = tomo("user", "list", in: folder).output.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["HANDLE", "NAME", "POSTS", "FOLLOWERS", "REGISTERED"], "\(lines)")
        #expect(lines.count == 5)
        // Every text column starts, and every number column ends, at the same display column on
        // every line (CJK and emoji count two).
        let header = lines[0]
        func offset(_ title: String) -> Int {
            header.range(of: title).map { header.distance(from: header.startIndex, to: $0.lowerBound) } ?? -1
        }
        for line in lines.dropFirst() {
            for title in ["NAME", "REGISTERED"] {
                let before = DisplayWidth.prefix(line, columns: offset(title))
                #expect(before.hasSuffix("  ") && !line.dropFirst(before.count).hasPrefix(" "), "\(line): \(title)")
            }
            for title in ["POSTS", "FOLLOWERS"] {
                let through = DisplayWidth.prefix(line, columns: offset(title) + title.count)
                #expect(!through.hasSuffix(" ") && line.dropFirst(through.count).hasPrefix("  "), "\(line): \(title)")
            }
        }
        let ken = try #require(lines.first { $0.hasPrefix("ken ") })
        #expect(ken.contains(" 2 ") && ken.contains("健一 山田"), "\(ken)")
        #expect(lines.contains { $0.hasPrefix("nobody ") && $0.contains("(no profile name") }, "\(lines)")
        // --json is as it was.
        let json = try JSONParser.parse(tomo("user", "list", "--json", in: folder).output, file: "stdout")
        #expect(json.arrayValue?.first.flatMap(\.objectValue).map { Set($0.keys) } == ["handle", "name", "created"])
    }

    @Test func displayWidthCountsWideCharactersTwice() {
        #expect(DisplayWidth.of("alice") == 5)
        #expect(DisplayWidth.of("健一") == 4)
        #expect(DisplayWidth.of("ｱｲ") == 2)  // half-width katakana is narrow
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("🎉") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)  // a combining accent takes no column
        #expect(DisplayWidth.prefix("健一 山田", columns: 5) == "健一 ")
    }

    /// Every page of a user's folder runs into the same problem (a file stands where the
    /// folder was): it is said once, and counted once.
    @Test func theCountIsOfTheErrorsShown() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        #expect(runTomo(["build"], in: site).status == 0)
        let example = site.appendingPathComponent("public/example")
        try FileManager.default.removeItem(at: example)
        try "not a folder".write(to: example, atomically: true, encoding: .utf8)
        let failed = runTomo(["build", "--full"], in: site)
        let shown = failed.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(shown.count == 1 && shown.first?.contains("example in the output is not a folder") == true, "\(failed.error)")
        #expect(failed.error.hasSuffix("Build failed: 1 error; public/ is unchanged\n"), "\(failed.error)")
    }

    @Test func aFailedBuildEndsWithTheCountAndWhatBecameOfTheOutput() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        try "name: [\n".write(to: site.appendingPathComponent("content/users/example.yaml"), atomically: true, encoding: .utf8)
        let first = runTomo(["build"], in: site)
        #expect(first.status == 1)
        #expect(first.error.hasSuffix("Build failed: 1 error; no public/ was made\n"), "\(first.error)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))

        #expect(runTomo(["init", site.path + "2"]).status == 0)
        let good = URL(fileURLWithPath: site.path + "2")
        #expect(runTomo(["build"], in: good).status == 0)
        try "name: [\n".write(to: good.appendingPathComponent("content/users/example.yaml"), atomically: true, encoding: .utf8)
        try "---\ntitle: [\n---\n".write(to: good.appendingPathComponent("content/pages/about.md"), atomically: true, encoding: .utf8)
        let second = runTomo(["build"], in: good)
        let errors = second.error.split(separator: "\n").count { $0.hasPrefix("error: ") }
        #expect(errors == 2, "\(second.error)")
        #expect(second.error.hasSuffix("Build failed: 2 errors; public/ is unchanged\n"), "\(second.error)")
        let elsewhere = runTomo(["build", "--out", folder.url.appendingPathComponent("out").path], in: good)
        #expect(elsewhere.error.hasSuffix("; no \(folder.url.standardizedFileURL.path)/out/ was made\n"), "\(elsewhere.error)")
    }
}
