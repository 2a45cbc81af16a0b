import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// A site folder for command tests: content/site.yaml, posts on demand.
private struct Site {
    let folder: TemporaryFolder
    var url: URL { folder.url }

    init() throws {
        folder = try TemporaryFolder(["content/site.yaml": "title: Test\n"])
    }

    func tomo(_ arguments: String...) -> CommandResult { runTomo(arguments, in: url) }

    func file(_ path: String) -> String? { try? String(contentsOf: url.appendingPathComponent(path), encoding: .utf8) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path) }

    func write(_ path: String, _ text: String) throws { try folder.write(path, text) }

    func writePost(_ id: String, visibility: String = "public") throws { try folder.writePost(id, visibility: visibility) }

    func json(_ arguments: String...) throws -> JSONValue {
        let result = runTomo(arguments, in: url)
        #expect(result.status == 0, "\(arguments): \(result.error)")
        return try JSONParser.parse(result.output, file: "stdout")
    }
}

@Suite struct StoreCommandTests {
    static let storeCommands = [
        "user add", "user list", "user show", "user set", "user rm", "user rename", "follow", "unfollow", "accept", "decline",
        "requests", "block", "unblock", "like", "unlike", "report", "reports", "post hide", "post unhide", "pick", "matches", "discover",
    ]

    @Test(arguments: storeCommands)
    func everyCommandExplainsItselfWithAnExample(command: String) {
        let result = runTomo(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Usage: tomo \(command)"))
        #expect(result.output.contains("Example"))
    }

    @Test func userAddRegistersWritesAStarterProfileAndValidatesTheHandle() throws {
        let site = try Site()
        let added = site.tomo("user", "add", "alice", "--name", "Alice \"Ace\" Example")
        #expect(added.status == 0)
        #expect(added.output == "added alice\nwrote content/users/alice.yaml\n")
        let profile = try #require(site.file("content/users/alice.yaml"))
        #expect(profile.hasPrefix("# yaml-language-server: $schema=../../schemas/profile.schema.json\nname: \"Alice \\\"Ace\\\" Example\"\n"))
        #expect(profile.contains("# links:") && profile.contains("# items:") && profile.contains("# bio: |"))
        // A profile someone wrote is never overwritten.
        try site.write("content/users/bob.yaml", "name: Bob\n")
        #expect(site.tomo("user", "add", "bob").output == "added bob\nkept content/users/bob.yaml: bob has a profile already\n")
        #expect(site.file("content/users/bob.yaml") == "name: Bob\n")

        let again = site.tomo("user", "add", "alice")
        #expect(again.status == 0 && again.output.contains("unchanged: alice is already registered"))
        let bad = site.tomo("user", "add", "Alice")
        #expect(bad.status == 1 && bad.error.contains("try \"alice\""))
        #expect(site.tomo("user", "add", "feed").status == 1)
        #expect(!site.exists("content/users/feed.yaml"))
        // Look-alike letters are refused, with the handle they look like.
        for (typed, suggested) in [("alíce", "alice"), ("\u{0430}lice", "alice")] {
            let refused = site.tomo("user", "add", typed)
            #expect(refused.status == 1)
            #expect(refused.error == "error: handle \"\(typed)\" may use only a-z, 0-9 and _ (try \"\(suggested)\")\n", "\(refused.error)")
            #expect(!site.exists("content/users/\(typed).yaml"))
        }
        #expect(try site.json("user", "list", "--json").arrayValue?.count == 2)
    }

    @Test func followPrintsWhatHappenedAndARepeatSaysItChangedNothing() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        _ = site.tomo("user", "add", "bob")
        #expect(site.tomo("follow", "alice", "bob").output == "alice now follows bob\n")
        let again = site.tomo("follow", "alice", "bob")
        #expect(again.status == 0 && again.output == "unchanged: alice already follows bob\n")
        let unknown = site.tomo("follow", "alice", "bobb")
        #expect(unknown.status == 1 && unknown.error.contains("did you mean \"bob\"?"))
        #expect(site.tomo("follow", "alice").status == 2)
    }

    @Test func requestsAcceptAndTheJSONShapes() throws {
        let site = try Site()
        for handle in ["alice", "bob", "carol"] { _ = site.tomo("user", "add", handle) }
        #expect(site.tomo("user", "set", "bob", "--approve-follows", "on").status == 0)
        #expect(site.tomo("follow", "alice", "bob").output.contains("waits for `tomo accept bob alice`"))
        _ = site.tomo("follow", "carol", "bob")
        #expect(try site.json("requests", "bob", "--json") == .array([.string("alice"), .string("carol")]))
        #expect(site.tomo("accept", "bob", "alice").status == 0)
        #expect(site.tomo("block", "bob", "carol").status == 0)
        try site.writePost("bob/one")
        try site.writePost("bob/two")

        let show = try site.json("user", "show", "bob", "--json")
        #expect(show.objectValue.map { Set($0.keys) } == ["handle", "name", "created", "following", "followers", "requests", "blocking", "posts"])
        #expect(show["followers"] == .array([.string("alice")]))
        #expect(show["requests"] == .array([]))
        #expect(show["blocking"] == .array([.string("carol")]))
        #expect(show["posts"] == .int(2))

        let list = try site.json("user", "list", "--json")
        #expect(list.arrayValue?.compactMap { $0["handle"]?.stringValue } == ["carol", "bob", "alice"])  // newest first
        #expect(list.arrayValue?.first.flatMap(\.objectValue).map { Set($0.keys) } == ["handle", "name", "created"])
    }

    @Test func likeReadsThePostFileAndRefusesNonPublicOrMissingPosts() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        _ = site.tomo("user", "add", "bob")
        try site.writePost("alice/sunset")
        try site.writePost("alice/diary", visibility: "private")
        #expect(site.tomo("like", "bob", "alice/sunset").output == "bob likes alice/sunset (1 like)\n")
        #expect(site.tomo("like", "bob", "alice/sunset").output == "unchanged: bob already likes alice/sunset\n")
        let hidden = site.tomo("like", "bob", "alice/diary")
        #expect(hidden.status == 1 && hidden.error.contains("not public (visibility: private)"))
        #expect(site.tomo("like", "bob", "alice/nope").status == 1)
        let traversal = site.tomo("like", "bob", "../../etc/passwd")
        #expect(traversal.status == 1 && traversal.error.contains("not a post id"))
    }

    @Test func reportsHideAndTheirJSON() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        _ = site.tomo("user", "add", "bob")
        try site.writePost("alice/sunset")
        #expect(site.tomo("report", "bob", "alice/sunset").status == 2)  // --reason is required
        #expect(site.tomo("report", "bob", "alice/sunset", "--reason", "stolen photo").status == 0)
        let reports = try site.json("reports", "--json")
        #expect(reports.arrayValue?.count == 1)
        #expect(reports.arrayValue?.first.flatMap(\.objectValue).map { Set($0.keys) } == ["user", "post", "reason", "created"])
        #expect(reports.arrayValue?.first?["reason"] == .string("stolen photo"))
        #expect(site.tomo("post", "hide", "alice/sunset").status == 0)
        #expect(site.tomo("reports").output.contains("bob reported alice/sunset (hidden): stolen photo"))
        #expect(site.tomo("post", "unhide", "alice/sunset").output == "alice/sunset is shown again\n")
    }

    /// A location, a distance and a count are plain decimal numbers: what `Double` would also
    /// read (hexadecimal, `inf`, `nan`, an exponent, a `+`) and an empty part are wrong usage,
    /// in a command and in a batch alike, with the form expected; the store keeps what it had.
    @Test(arguments: ["0x10,0", "inf,0", "0,nan", "1e1,0", ",5", "5,", "5,,5", ".5,1", "5.,1", "0x1p3,0", " ,1", "+35,0", "1\(String(repeating: "0", count: 400)),0"])
    func aLocationIsTwoDecimalNumbers(written: String) throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        let before = site.file("content/store.json")
        let result = site.tomo("user", "set", "alice", "--location", written)
        #expect(result.status == 2, "\(written): \(result.output)")
        #expect(result.error.contains("--location takes LAT,LON as two decimal numbers of degrees"), "\(written): \(result.error)")
        #expect(result.error.contains("(e.g. 35.6812,139.7671 or -33.8688,151.2093)"), "\(written): \(result.error)")
        try site.write("batch.txt", "user set alice --location \(written)\n")
        let batch = site.tomo("batch", "batch.txt")
        #expect(batch.status != 0, "\(written): \(batch.output)")
        #expect(batch.error.contains("--location takes LAT,LON as two decimal numbers of degrees"), "\(written): \(batch.error)")
        #expect(site.file("content/store.json") == before)
    }

    @Test func decimalNumbersAreAccepted() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        #expect(site.tomo("user", "set", "alice", "--location", "-33.8688,151.2093").output == "updated alice: location -33.8688,151.2093\n")
        // A space after the comma, as maps copy coordinates, is fine.
        #expect(site.tomo("user", "set", "alice", "--location", "35, -0.5").output == "updated alice: location 35.0,-0.5\n")
        _ = site.tomo("user", "set", "alice", "--seeking", "m")
        let found = site.tomo("discover", "alice", "--within", "2.5", "--limit", "3")
        #expect(found.status == 0, "\(found.error)")
        let wrong = ["0x10", "inf", "nan", "1e3", "+5", " 5", "5 ", "", "-1", "99999999999999999999", "1\(String(repeating: "0", count: 400))"]
        for option in ["--within", "--limit"] {
            for value in wrong {
                let result = site.tomo("discover", "alice", option, value)
                #expect(result.status == 2, "\(option) \(value): \(result.output)")
                #expect(result.error.contains("\(option) needs a "), "\(option) \(value): \(result.error)")
            }
        }
        // The port is read the same strict way (read directly here: a port that passed would
        // start a server).
        for value in ["+8080", "0x50", " 80", "80.0", "0", "65536", "99999999999999999999"] {
            guard case .failure(let error) = ValueTypes.port.read(value, "--port") else {
                Issue.record("--port \(value) was accepted")
                continue
            }
            #expect(error.message == "--port takes a number from 1 to 65535, not \"\(value)\"")
        }
        #expect(try ValueTypes.port.read("8080", "--port").get() == 8080)
    }

    @Test func picksMatchesAndDiscoverJSON() throws {
        let site = try Site()
        for handle in ["alice", "bob", "carl"] { _ = site.tomo("user", "add", handle) }
        #expect(site.tomo("user", "set", "alice", "--location", "35.6812,139.7671", "--gender", "f", "--seeking", "m").output
            == "updated alice: location 35.6812,139.7671, gender f, seeking m\n")
        _ = site.tomo("user", "set", "bob", "--location", "35.6850,139.7671", "--gender", "m")
        _ = site.tomo("user", "set", "carl", "--location", "35.6900,139.7671", "--gender", "M")
        let nearby = try site.json("discover", "alice", "--json")
        #expect(nearby.arrayValue?.compactMap { $0["handle"]?.stringValue } == ["bob", "carl"])
        #expect(nearby.arrayValue?.first?["km"] == .double(0.423))
        #expect(try site.json("discover", "alice", "--limit", "1", "--json").arrayValue?.count == 1)
        #expect(site.tomo("discover", "alice", "--within", "far").status == 2)
        #expect(site.tomo("discover", "alice", "--limit", "1e300").status == 2)
        #expect(site.tomo("user", "set", "alice", "--location", "135,0").status == 2)

        #expect(site.tomo("pick", "alice", "bob", "accept").status == 0)
        #expect(site.tomo("pick", "bob", "alice", "accept").output == "bob accepts alice: it's a match\n")
        #expect(site.tomo("pick", "alice", "carl", "acept").error.contains("did you mean \"accept\"?"))
        #expect(try site.json("matches", "alice", "--json") == .array([.string("bob")]))
        #expect(try site.json("discover", "alice", "--json").arrayValue?.compactMap { $0["handle"]?.stringValue } == ["carl"])
    }

    @Test func userRmNeedsYesThenRemovesRelationsProfileAndPosts() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        _ = site.tomo("user", "add", "bob")
        _ = site.tomo("follow", "alice", "bob")
        try site.writePost("bob/one")
        try site.write("content/users/bob/icon.jpg", "jpeg")
        let store = site.file("content/store.json")
        // Without --yes: wrong usage, as for `tomo post rm`, and nothing is deleted.
        let unconfirmed = site.tomo("user", "rm", "bob")
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.error == """
        error: this deletes bob's store entry and relations, content/users/bob, content/posts/bob, content/users/bob.yaml: run `tomo user rm bob --yes` to confirm
        usage: tomo user rm HANDLE [--yes]

        """, "\(unconfirmed.error)")
        #expect(site.file("content/store.json") == store)
        for path in ["content/users/bob.yaml", "content/users/bob/icon.jpg", "content/posts/bob/one.md"] { #expect(site.exists(path)) }
        let removed = site.tomo("user", "rm", "bob", "--yes")
        #expect(removed.status == 0)
        for path in ["content/users/bob.yaml", "content/users/bob", "content/posts/bob"] { #expect(!site.exists(path)) }
        #expect(site.exists("content/users/alice.yaml"))
        #expect(try site.json("user", "show", "alice", "--json")["following"] == .array([]))
        #expect(site.tomo("user", "rm", "bob", "--yes").status == 1)
    }

    @Test func userRenameMovesFilesAndRewritesRelations() throws {
        let site = try Site()
        _ = site.tomo("user", "add", "alice")
        _ = site.tomo("user", "add", "bob")
        try site.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\nheader: alice/header.jpg\n")
        try site.write("content/users/alice/icon.jpg", "jpeg")
        try site.writePost("alice/sunset")
        _ = site.tomo("like", "bob", "alice/sunset")
        _ = site.tomo("follow", "bob", "alice")
        #expect(site.tomo("user", "rename", "alice", "bob").status == 1)  // taken
        let renamed = site.tomo("user", "rename", "alice", "ann")
        #expect(renamed.status == 0, "\(renamed.error)")
        #expect(site.file("content/users/ann.yaml") == "name: Alice\nicon: ann/icon.jpg\nheader: ann/header.jpg\n")
        #expect(site.exists("content/users/ann/icon.jpg") && site.exists("content/posts/ann/sunset.md"))
        #expect(!site.exists("content/users/alice.yaml") && !site.exists("content/posts/alice"))
        #expect(try site.json("user", "show", "ann", "--json")["followers"] == .array([.string("bob")]))
        #expect(site.tomo("like", "bob", "ann/sunset").output.contains("already likes"))
    }

    @Test func aBrokenStoreIsReportedWithItsLocationAndExitOne() throws {
        let site = try Site()
        let broken = "{\"users\": [}\n"
        try site.write("content/store.json", broken)
        let result = site.tomo("user", "add", "alice")
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: content/store.json:1:12: "))
        #expect(site.file("content/store.json") == broken)
        #expect(!site.exists("content/users/alice.yaml"))
    }
}
