import Foundation
import Testing
import TomoCore
@testable import TomoSite
import TomoTestSupport

/// The record of the files tomo made in an output (`.tomo-made`, in the output) outlives what
/// could lose it: a site folder moved or renamed between two builds (its output `public/`
/// inside it, moved along), and a deleted `.tomo-cache/`. The build still knows which files
/// it made, so what the site stopped publishing is deleted, not left on the host as a file
/// "tomo did not make".
@Suite struct MadeFilesRecordTests {
    /// How the site folder gets to its new place: moved or renamed (the same inodes), or copied
    /// whole (`cp -a`, a backup or a CI cache restored: new inodes, so the kept build state no
    /// longer belongs to the output).
    enum Relocation: CaseIterable, Sendable { case move, copy }

    @Test(arguments: [false, true], Relocation.allCases)
    func whatTheSiteNoLongerPublishesIsDeletedAfterAMoveOrACopy(full: Bool, how: Relocation) throws {
        let folder = try TemporaryFolder(prefix: "tomo-moved")
        try folder.write("one/content/site.yaml", SiteFolder.siteYAML)
        try folder.write("one/content/users/alice.yaml", "name: Alice\n")
        try folder.write("one/content/users/bob.yaml", "name: Bob Secret\n")
        let before = folder.url.appendingPathComponent("one")
        try SiteBuilder.build(BuildOptions(site: before))
        #expect(FileManager.default.fileExists(atPath: before.appendingPathComponent("public/bob/index.html").path))

        let after = folder.url.appendingPathComponent("two")
        switch how {
        case .move: try FileManager.default.moveItem(at: before, to: after)
        case .copy: try FileManager.default.copyItem(at: before, to: after)
        }
        try FileManager.default.removeItem(at: after.appendingPathComponent("content/users/bob.yaml"))
        let report = try SiteBuilder.build(BuildOptions(site: after, full: full))

        let left = SiteFolder.files(in: after.appendingPathComponent("public"))
        #expect(left.keys.filter { $0.hasPrefix("bob/") }.isEmpty, "bob's pages are gone: \(left.keys.sorted())")
        #expect(!left.values.contains { $0.contains("Bob Secret") }, "no file still shows bob")
        #expect(report.warnings.allSatisfy { !$0.message.contains("tomo did not make") }, "\(report.warnings)")
        #expect(left["alice/index.html"]?.contains("Alice") == true)
    }

    @Test(arguments: [false, true]) func whatTheSiteNoLongerPublishesIsDeletedAfterTheCacheIsDeleted(full: Bool) throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/bob.yaml": "name: Bob Secret\n",
        ])
        try site.build()
        try site.write("public/notes.txt", "put here by hand\n")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(".tomo-cache"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/users/bob.yaml"))
        let report = try SiteBuilder.build(BuildOptions(site: site.root, full: full))
        let left = site.outputFiles()
        #expect(left.keys.filter { $0.hasPrefix("bob/") }.isEmpty, "bob's pages are gone: \(left.keys.sorted())")
        #expect(!left.values.contains { $0.contains("Bob Secret") }, "no file still shows bob")
        #expect(left["notes.txt"] == "put here by hand\n", "a file tomo did not make is kept")
        #expect(report.warnings.contains { $0.message.contains("notes.txt") }, "the file put there by hand is named: \(report.warnings)")
    }

    /// The record lies in the output: one changed there to name a file outside it (`../x`) is
    /// not believed, and nothing outside the output is deleted.
    @Test func aRecordNamingAFileOutsideTheOutputIsNotBelieved() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        try site.build()
        try site.write("outside.txt", "mine\n")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(".tomo-cache"))
        let output = site.output.standardizedFileURL.path
        MadeFiles.save(["index.html", "../outside.txt"], output: output)
        #expect(MadeFiles.load(output: output) == nil)
        try site.build()
        #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("outside.txt").path))
    }
}

/// Every build that commits gives the output's marker a new change time, which its kept state
/// records: the kept state of another build into the same folder (another copy of the site,
/// the folder reached through a link, a cache restored from before) no longer matches, and
/// that build compares every file again instead of trusting what it last wrote.
@Suite struct SharedOutputTests {
    @Test func aBuildAfterAnotherStatesBuildIntoItsOutputPutsItsOwnPagesBack() throws {
        let output = try TemporaryFolder(prefix: "tomo-shared-output")
        let first = try SiteFolder(["content/site.yaml": "title: First site\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        let second = try SiteFolder(["content/site.yaml": "title: Second site\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        let out = output.url.appendingPathComponent("public")
        _ = try SiteBuilder.build(BuildOptions(site: first.root, output: out))
        _ = try SiteBuilder.build(BuildOptions(site: second.root, output: out))
        let again = try SiteBuilder.build(BuildOptions(site: first.root, output: out))
        #expect(!again.nothingChanged)
        let home = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("First site") && !home.contains("Second site"))
        #expect(SiteFolder.files(in: out) == (try first.fullBuild()))
        // With nothing else in between, the next build is its own again: nothing changed.
        let last = try SiteBuilder.build(BuildOptions(site: first.root, output: out))
        #expect(last.nothingChanged)
    }
}
