import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// "Newest first" is the order of registration, kept as a sequence in the store: `user list`,
/// its `--json` and the home page agree, however many users share a millisecond.
@Suite struct UserOrderTests {
    /// Handles in no alphabetical order, so a tie broken by handle shows.
    static let handles = (0..<40).map { "u\(String(($0 * 37) % 40 + 10))" }

    func listed(in site: URL) throws -> [String] {
        let result = runTomo(["user", "list", "--json"], in: site)
        #expect(result.status == 0, "\(result.error)")
        return try JSONParser.parse(result.output, file: "stdout").arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
    }

    @Test func usersRegisteredInOneBatchListInRegistrationOrderNewestFirst() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\nbaseURL: https://example.com/\nhomeUsers: 100\n"])
        try site.write("batch.txt", Self.handles.map { "user add \($0)" }.joined(separator: "\n") + "\n")
        #expect(runTomo(["batch", "batch.txt"], in: site.url).status == 0)
        let newestFirst = Array(Self.handles.reversed())
        #expect(try listed(in: site.url) == newestFirst)
        // The text listing and the home page show the same order.
        let text = runTomo(["user", "list"], in: site.url).output.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != " " }) }
        #expect(text == newestFirst)
        #expect(runTomo(["build"], in: site.url).status == 0)
        let home = try String(contentsOf: site.url.appendingPathComponent("public/index.html"), encoding: .utf8)
        let onHome = home.components(separatedBy: #"<li class="user-card" data-handle=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(onHome == newestFirst)
    }

    @Test func inProcessAddsListInRegistrationOrderAndARemovedUserComesBackNewest() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\n"])
        let handles = ["zoe", "carol", "mia", "bob", "alice"]
        for handle in handles { #expect(runTomo(["user", "add", handle], in: site.url).status == 0) }
        #expect(try listed(in: site.url) == handles.reversed())
        #expect(runTomo(["user", "rm", "mia", "--yes"], in: site.url).status == 0)
        #expect(runTomo(["user", "add", "mia"], in: site.url).status == 0)
        #expect(try listed(in: site.url) == ["mia", "alice", "bob", "carol", "zoe"])
        // Renaming keeps a user's place.
        #expect(runTomo(["user", "rename", "carol", "cara"], in: site.url).status == 0)
        #expect(try listed(in: site.url) == ["mia", "alice", "bob", "cara", "zoe"])
    }
}
