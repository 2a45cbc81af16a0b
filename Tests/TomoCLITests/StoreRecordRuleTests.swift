import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// Stores a hand edit can make and no command ever writes: `tomo check` reports each at its
/// record in store.json, `tomo build` refuses the store with the same lines, and the fix the
/// message names makes the error go.
@Suite struct StoreRecordRuleTests {
    static let time = "2026-01-01T00:00:00.000Z"

    /// A site of alice and bob (profiles, a post of alice's) with `store` as its store.
    func site(store: String) throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/store.json": store,
        ])
        try site.writePost("alice/sunset")
        try site.copy(sampleJPEG, to: "content/posts/alice/p.jpg")
        return site
    }

    /// A store of alice (1) and bob (2), one record a line, with the sections given.
    static func store(_ sections: [String: String], users: String? = nil) -> String {
        let users = users ?? """
                {"approveFollows":false,"created":"\(time)","handle":"alice","sequence":1},
                {"approveFollows":false,"created":"\(time)","handle":"bob","sequence":2}
            """
        var all = ["blocks": "", "follows": "", "picks": "", "renames": "", "reports": "", "requests": "", "users": users]
        all.merge(sections) { $1 }
        let lines = all.sorted { $0.key < $1.key }.map { "  \"\($0.key)\": [\n\($0.value)\n  ]," }
        return "{\n" + lines.joined(separator: "\n") + "\n  \"version\": 3\n}\n"
    }

    /// The `error:` lines of `tomo check`, after checking that `tomo build` fails with the same ones.
    func errors(_ site: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let check = runTomo(["check"], in: site.url)
        let build = runTomo(["build"], in: site.url)
        let lines = { (result: CommandResult) in result.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") } }
        #expect(check.status == build.status, "check \(check.status), build \(build.status)", sourceLocation: sourceLocation)
        #expect(Set(lines(check)) == Set(lines(build)), "check: \(check.error)\nbuild: \(build.error)", sourceLocation: sourceLocation)
        return lines(check)
    }

    @Test func aFollowAcrossABlockIsAnErrorUntilTheFollowGoes() throws {
        let site = try site(store: Self.store([
            "blocks": #"    {"created":"\#(Self.time)","from":"alice","to":"bob"}"#,
            "follows": #"    ["alice","bob","\#(Self.time)"],"# + "\n" + #"    ["bob","alice","\#(Self.time)"]"#,
        ]))
        #expect(errors(site) == [
            "error: content/store.json:6:5: alice follows bob, but alice blocks bob, and a block ends follows and requests both ways: remove this follow with `tomo unfollow alice bob` (or the block with `tomo unblock alice bob`)",
            "error: content/store.json:7:5: bob follows alice, but alice blocks bob, and a block ends follows and requests both ways: remove this follow with `tomo unfollow bob alice` (or the block with `tomo unblock alice bob`)",
        ])
        // bob's page would have said "1 follower": nothing is built.
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/bob/index.html").path))
        #expect(runTomo(["unfollow", "alice", "bob"], in: site.url).status == 0)
        #expect(runTomo(["unfollow", "bob", "alice"], in: site.url).status == 0)
        #expect(errors(site).isEmpty)
        let page = try String(contentsOf: site.url.appendingPathComponent("public/bob/index.html"), encoding: .utf8)
        #expect(!page.contains("1 follower"))
    }

    @Test func aRequestAcrossABlockIsAnError() throws {
        let site = try site(store: Self.store([
            "blocks": #"    {"created":"\#(Self.time)","from":"bob","to":"alice"}"#,
            "requests": #"    ["alice","bob","\#(Self.time)"]"#,
        ]))
        #expect(errors(site) == [
            "error: content/store.json:18:5: alice asks to follow bob, but bob blocks alice, and a block ends follows and requests both ways: remove this request with `tomo unfollow alice bob` (or the block with `tomo unblock bob alice`)",
        ])
    }

    /// Every `created` is a time as tomo writes it, and a real one: a user's feed ids are made
    /// of the day they registered, and `tomo user list` prints it as it is.
    @Test func aCreatedThatIsNoStoreTimeIsAnError() throws {
        let site = try site(store: Self.store([
            "follows": #"    ["bob","alice","2026-05-01T09:00:00Z"]"#,
            "reports": #"    {"created":"99999-01-01T00:00:00.000Z","post":"alice/sunset","reason":"spam","user":"bob"}"#,
        ], users: """
                {"approveFollows":false,"created":"yesterday","handle":"alice","sequence":1},
                {"approveFollows":false,"created":"2026-02-30T10:00:00.000Z","handle":"bob","sequence":2}
            """))
        let form = "write it as 2026-11-30T12:34:56.789Z (UTC, with milliseconds)"
        #expect(errors(site) == [
            "error: content/store.json:6:5: the \"created\" of this follow, \"2026-05-01T09:00:00Z\", is not a time as tomo writes one: \(form)",
            "error: content/store.json:15:5: the \"created\" of this report of alice/sunset, \"99999-01-01T00:00:00.000Z\", is not a time as tomo writes one: \(form)",
            "error: content/store.json:21:5: the \"created\" of alice, \"yesterday\", is not a time as tomo writes one: \(form)",
            "error: content/store.json:22:5: the \"created\" of bob, \"2026-02-30T10:00:00.000Z\", is no real day and time: \(form)",
        ])
    }

    @Test(arguments: ["2026-12-07T10:11:12.123Z", "2028-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z"])
    func aStoreTimeAsTomoWritesItIsFine(time: String) throws {
        let site = try site(store: Self.store(["follows": #"    ["bob","alice","\#(time)"]"#]))
        #expect(errors(site).isEmpty)
    }

    /// What `tomo report` and `tomo user set` refuse is refused in the store too.
    @Test func valuesTheCommandsRefuseAreErrors() throws {
        let site = try site(store: Self.store([
            "reports": #"    {"created":"\#(Self.time)","post":"alice/sunset","reason":" ","user":"bob"}"#,
        ], users: """
                {"approveFollows":false,"created":"\(Self.time)","gender":"\(String(repeating: "x", count: 5000))","handle":"alice","seeking":"a b","sequence":1},
                {"approveFollows":false,"created":"\(Self.time)","gender":"\(String(repeating: "y", count: 40))","handle":"bob","sequence":2}
            """))
        #expect(errors(site) == [
            "error: content/store.json:15:5: this report of alice/sunset has an empty \"reason\": write what is wrong with the post, as `tomo report --reason` asks (or remove the record)",
            "error: content/store.json:21:5: the \"gender\" of alice has 5000 characters, and `tomo user set --gender` takes one word of at most 40 characters: write one (or remove the key)",
            "error: content/store.json:21:5: the \"seeking\" of alice is more than one word, and `tomo user set --seeking` takes one word of at most 40 characters: write one (or remove the key)",
        ])
    }

    /// One report per user and post, one pick per pair, a follow or a request: a second record
    /// that says otherwise is an error at the second.
    @Test func conflictingDuplicatesAreErrorsAtTheSecondRecord() throws {
        let site = try site(store: Self.store([
            "follows": #"    ["alice","bob","\#(Self.time)"]"#,
            "picks": #"    {"created":"\#(Self.time)","decision":"accept","from":"alice","to":"bob"},"# + "\n"
                + #"    {"created":"\#(Self.time)","decision":"reject","from":"alice","to":"bob"}"#,
            "reports": #"    {"created":"\#(Self.time)","post":"alice/sunset","reason":"spam","user":"bob"},"# + "\n"
                + #"    {"created":"\#(Self.time)","post":"alice/sunset","reason":"not hers","user":"bob"}"#,
            "requests": #"    ["alice","bob","\#(Self.time)"]"#,
        ]))
        #expect(errors(site) == [
            "error: content/store.json:10:5: alice picked bob in an earlier record too, with the other decision: keep one of the two (one pick a pair): delete one, or keep the earlier one with `tomo pick alice bob accept`",
            "error: content/store.json:17:5: bob reported alice/sunset in an earlier record too: keep one of the two (one report per user and post; `tomo report` replaces its reason)",
            "error: content/store.json:20:5: alice asks to follow bob and follows bob already (in \"follows\"): remove this request",
        ])
        // The same records twice say nothing new: they stay one, as before.
        let same = try self.site(store: Self.store([
            "picks": #"    {"created":"\#(Self.time)","decision":"accept","from":"alice","to":"bob"},"# + "\n"
                + #"    {"created":"\#(Self.time)","decision":"accept","from":"alice","to":"bob"}"#,
        ]))
        #expect(errors(same).isEmpty)
    }

    /// A follow, block or pick written twice at two times (a merge of two copies of the store)
    /// is one record to the store: an error at the second, as a build would count one.
    @Test func aRecordWrittenTwiceAtTwoTimesIsAnErrorAtTheSecond() throws {
        let later = "2026-01-02T00:00:00.000Z"
        let site = try site(store: Self.store([
            "blocks": #"    {"created":"\#(later)","from":"bob","to":"alice"},"# + "\n" + #"    {"created":"\#(Self.time)","from":"bob","to":"alice"}"#,
            "picks": #"    {"created":"\#(Self.time)","decision":"accept","from":"alice","to":"bob"},"# + "\n"
                + #"    {"created":"\#(later)","decision":"accept","from":"alice","to":"bob"}"#,
        ]))
        #expect(errors(site) == [
            "error: content/store.json:4:5: bob blocks alice in an earlier record too, written otherwise: keep one of the two",
            "error: content/store.json:11:5: alice picked bob in an earlier record too, written otherwise: keep one of the two",
        ])
    }

    /// A command that rewrites the store from what it read would drop the other record of such
    /// a pair: one that leaves the pair as it is, or renames one of its users (the pair's one
    /// record goes along), is refused before anything changes, with the record; one that
    /// changes the pair (the fix the message names) goes ahead.
    @Test func aCommandThatWouldDropTheOtherRecordOfAPairIsRefused() throws {
        let picks = #"    {"created":"\#(Self.time)","decision":"accept","from":"bob","to":"alice"},"# + "\n"
            + #"    {"created":"\#(Self.time)","decision":"reject","from":"bob","to":"alice"}"#
        let store = Self.store(["picks": picks, "requests": #"    ["alice","bob","\#(Self.time)"]"#, "follows": #"    ["alice","bob","\#(Self.time)"]"#])
        let site = try site(store: store)
        try site.write("commands.txt", "follow bob alice\n")
        for command in [["pick", "alice", "bob", "accept"], ["follow", "bob", "alice"], ["batch", "commands.txt"], ["user", "rename", "bob", "robert"]] {
            let result = runTomo(command, in: site.url)
            #expect(result.status == 1, "\(command): \(result.output)")
            #expect(result.error.contains("error: content/store.json:") && result.error.contains("would drop the other one of this pair"), "\(command): \(result.error)")
            #expect(try String(contentsOf: site.url.appendingPathComponent("content/store.json"), encoding: .utf8) == store, "\(command) changed the store")
        }
        // A command that reads neither section copies both as they are; one that ends the pair
        // (`tomo block bob alice` ends the follow and the request) may change it.
        #expect(runTomo(["user", "add", "carol"], in: site.url).status == 0)
        let added = try String(contentsOf: site.url.appendingPathComponent("content/store.json"), encoding: .utf8)
        #expect(added.contains(picks) && added.contains(#"  "requests": [\#n    ["alice","bob","\#(Self.time)"]"#), "\(added)")
        // The fixes change the pairs: picking again, and ending the follow the request sits beside.
        #expect(runTomo(["pick", "bob", "alice", "accept"], in: site.url).status == 0)
        #expect(runTomo(["unfollow", "alice", "bob"], in: site.url).status == 0)
        #expect(errors(site).isEmpty)
    }

    /// Notepad saves a byte order mark: the store is read past it, like every other text file,
    /// and the next write drops it.
    @Test func aStoreWithAByteOrderMarkIsRead() throws {
        let store = Self.store(["follows": #"    ["alice","zed","\#(Self.time)"]"#])
        let site = try site(store: store)
        try site.write("content/store.json", bytes: [0xEF, 0xBB, 0xBF] + Array(store.utf8))
        #expect(errors(site) == [
            "error: content/store.json:6:5: this follow names \"zed\", who is not registered: register them with `tomo user add zed` or remove the record",
        ])
        #expect(runTomo(["user", "add", "zed"], in: site.url).status == 0)
        #expect(errors(site).isEmpty)
        let written = try Data(contentsOf: site.url.appendingPathComponent("content/store.json"))
        #expect(written.first == UInt8(ascii: "{"))
        let list = runTomo(["user", "list"], in: site.url)
        #expect(list.status == 0 && list.output.contains("zed"), "\(list.error)")
    }

    /// A number is shown as it was typed, not as the double it reads as.
    /// Past 2^53 the double is another number (…993 reads as …992): read from the text.
    @Test(arguments: ["9223372036854775807", "1.5", "0", "-3", "1e300", "9007199254740993", "99999999999999999999", "1e3", "2.0"])
    func aBadSequenceIsShownAsWritten(sequence: String) throws {
        let site = try site(store: Self.store([:], users: """
                {"approveFollows":false,"created":"\(Self.time)","handle":"alice","sequence":\(sequence)}
            """))
        #expect(errors(site) == [
            "error: content/store.json:21:94: \"sequence\" is the user's registration order, a whole number from 1 to 9007199254740992, not \(sequence)",
        ])
    }
}
