import Foundation
import Testing
import TomoTestSupport

/// What the running `tomo serve` says and serves, as its user sees it: the `Rebuilt … after …`
/// line names what the rebuild reacted to, errors read as `tomo check` prints them, files
/// `tomo build` publishes are previewed, and the help says where the served files are kept.
@Suite struct ServeRebuildLineTests {
    /// A site of one profile, `alice`, and `tomo serve` on it.
    static func served(_ files: [String: String] = [:]) throws -> (site: TemporaryFolder, preview: LoggedPreview) {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\n", "content/users/alice.yaml": "name: Alice\n"].merging(files) { $1 })
        return (site, try LoggedPreview(site: site.url))
    }

    /// The next line that tells how a rebuild ended (`Rebuilt …` or `The rebuild after …`).
    static func rebuildLine(_ preview: LoggedPreview, timeout: Double = 20, _ matches: (String) -> Bool = { _ in true }) throws -> String {
        try preview.line(timeout: timeout) { ($0.hasPrefix("Rebuilt ") || $0.hasPrefix("The rebuild ")) && matches($0) }
    }

    @Test func aTimedRebuildSaysWhatTriggeredIt() throws {
        let (site, preview) = try Self.served()
        defer { preview.stop() }
        let moment = Date().addingTimeInterval(2)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Soon\n    from: \(formatter.string(from: moment))\n")
        _ = try Self.rebuildLine(preview) { $0.contains("content/users/alice.yaml") }
        let timed = try Self.rebuildLine(preview)
        let clock = DateFormatter()
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.dateFormat = "HH:mm:ss"
        #expect(!timed.contains("after :"), "\(timed)")
        #expect(timed.contains("after an item's from/until or a post's date passed at "), "\(timed)")
        // The moment, to the second, in this machine's time (the alarm rings at it or just after).
        let said = [moment, moment.addingTimeInterval(1)].map(clock.string(from:))
        #expect(said.contains { timed.contains("passed at \($0):") }, "\(timed) \(said)")
    }

    @Test func onlySiteFilesAreNamedNotTemporaryFilesOrFolders() throws {
        let (site, preview) = try Self.served()
        defer { preview.stop() }
        // As `sed -i` saves: a temporary file beside the original, renamed over it.
        try site.write("content/users/sedWP2yEz", "name: Alice Liddell\n")
        #expect(rename(site.url.appendingPathComponent("content/users/sedWP2yEz").path,
                       site.url.appendingPathComponent("content/users/alice.yaml").path) == 0)
        let edited = try Self.rebuildLine(preview)
        #expect(edited.hasPrefix("Rebuilt "), "\(edited)")
        #expect(edited.contains(" after content/users/alice.yaml: "), "\(edited)")
        #expect(!edited.contains("sed"), "\(edited)")
        // A post in folders that did not exist: the post is named, not the folders.
        usleep(200_000)
        try site.write("content/posts/alice/hello.md", "---\ndate: 2026-05-01T18:30:00+09:00\n---\nHello.\n")
        let post = try Self.rebuildLine(preview)
        #expect(post.contains(" after content/posts/alice/hello.md"), "\(post)")
        #expect(!post.contains("content/posts,") && !post.contains("content/posts/alice,"), "\(post)")
        // A file deleted is named too.
        usleep(200_000)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/posts/alice/hello.md"))
        let deleted = try Self.rebuildLine(preview)
        #expect(deleted.contains(" after content/posts/alice/hello.md"), "\(deleted)")
    }

    @Test func aDuplicateProfileIsReportedWhereCheckReportsIt() throws {
        let (site, preview) = try Self.served(["content/users/erin.yaml": "name: Erin\n"])
        defer { preview.stop() }
        try site.write("content/users/erin.json", "{\"name\": \"Erin\"}\n")
        guard case .failed(let failure) = try preview.settle(step: 1) else {
            Issue.record("a duplicate profile does not fail the rebuild")
            return
        }
        let served = ServeFailureMessageTests.errorLines(failure)
        let checked = ServeFailureMessageTests.errorLines(runTomo(["check"], in: site.url).error)
        #expect(!checked.isEmpty)
        #expect(served == checked, "\(served) \(checked)")
    }

    @Test func filesWithHashOrBackslashInTheirNamesArePreviewed() throws {
        let (site, preview) = try Self.served(["static/x#y.txt": "hash\n", "static/a\\b.txt": "backslash\n"])
        defer { preview.stop() }
        // `tomo build` publishes both names as they are.
        let built = runTomo(["build"], in: site.url)
        #expect(built.status == 0, "\(built.error)")
        for name in ["x#y.txt", "a\\b.txt"] {
            #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/" + name).path), "\(name)")
        }
        // `get` escapes the name, as a browser does for a link to it (%23, %5C).
        let hash = try preview.get("x#y.txt")
        #expect(hash.status == 200)
        #expect(hash.text == "hash\n")
        let backslash = try preview.get("a\\b.txt")
        #expect(backslash.status == 200)
        #expect(backslash.text == "backslash\n")
    }

    @Test func theHelpSaysWhereTheServedFilesAreKept() {
        let help = runTomo(["serve", "--help"]).output
        #expect(!help.contains("into memory"), "\(help)")
        #expect(help.contains(".tomo-cache/serve/"), "\(help)")
    }
}
