import Foundation
import Testing
import TomoCore
@testable import TomoStore

/// `content/store.json` on disk: format, errors with locations, versions, untouched files.
@Suite struct StoreFileTests {
    @Test func aMissingStoreIsEmptyAndTheFirstWriteCreatesIt() throws {
        let site = try TemporarySite()
        #expect(try site.read() == Store())
        #expect(!FileManager.default.fileExists(atPath: site.storeURL.path))
        try site.addUsers("alice")
        #expect(FileManager.default.fileExists(atPath: site.storeURL.path))
        #expect(try site.read().users.map(\.handle) == ["alice"])
    }

    @Test func theFileHasOneRecordPerLineInKeyOrder() throws {
        let site = try TemporarySite()
        try site.apply { store throws(Diagnostic) in
            _ = try store.addUser("bob", at: "2026-01-02T00:00:00.000Z")
            _ = try store.addUser("alice", at: "2026-01-01T00:00:00.000Z")
            _ = try store.updateUser("bob") { $0.approveFollows = true }
            _ = try store.follow("bob", "alice", at: "2026-01-03T00:00:00.000Z")
            _ = try store.follow("alice", "bob", at: "2026-01-04T00:00:00.000Z")
            return try store.like("bob", PostID(handle: "alice", slug: "sunset"), visibility: .public)
        }
        #expect(site.storeText() == """
        {
          "blocks": [],
          "follows": [
            ["bob","alice","2026-01-03T00:00:00.000Z"]
          ],
          "hidden": [],
          "likes": {
            "alice/sunset": ["bob"]
          },
          "picks": [],
          "renames": [],
          "reports": [],
          "requests": [
            ["alice","bob","2026-01-04T00:00:00.000Z"]
          ],
          "users": [
            {"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"alice","sequence":2},
            {"approveFollows":true,"created":"2026-01-02T00:00:00.000Z","handle":"bob","sequence":1}
          ],
          "version": 3
        }

        """)
        // It is JSON any tool reads.
        #expect(try JSONParser.parse(site.storeText(), file: "store.json")["version"] == .int(3))
    }

    @Test func encodingADecodedStoreGivesTheSameBytes() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        try site.apply { store throws(Diagnostic) in
            _ = try store.updateUser("alice") { $0.location = Location(latitude: 35.6812, longitude: -139.5); $0.gender = "f"; $0.seeking = "m" }
            _ = try store.follow("alice", "bob")
            _ = try store.block("carol", "bob")
            _ = try store.pick("alice", "bob", .accept)
            _ = try store.report("carol", PostID(handle: "alice", slug: "a"), reason: "line\nbreak \u{1F600}", visibility: .public)
            return try store.hidePost(PostID(handle: "alice", slug: "a"), visibility: .public)
        }
        let bytes = Array(site.storeText().utf8)
        let store = try StoreDecoder.decode(bytes, file: "content/store.json")
        #expect(StoreEncoder.encode(store) == bytes)
        #expect(store.reports.first?.reason == "line\nbreak \u{1F600}")
        #expect(store.user("alice")?.location == Location(latitude: 35.6812, longitude: -139.5))
    }

    @Test func aBrokenStoreIsReportedWithLineAndColumnAndLeftUntouched() throws {
        let site = try TemporarySite()
        let broken = "{\n  \"users\": [\n    {\"handle\": \"alice\" \"created\": \"x\"}\n  ],\n  \"version\": 1\n}\n"
        try site.writeStore(broken)
        #expect(throws: Diagnostic("expected ',' or '}' in the object: put a comma between two members, or close the object with }", at: SourceLocation(file: "content/store.json", line: 3, column: 24))) {
            try site.apply { store throws(Diagnostic) in try store.addUser("bob") }
        }
        #expect(site.storeText() == broken)
    }

    @Test func aStoreOfTheWrongShapeNamesTheKeyAndSuggestsTheFix() throws {
        let site = try TemporarySite()
        try site.writeStore("{\n  \"users\": [\n    {\"handle\":\"alice\",\"created\":\"2026-01-01T00:00:00.000Z\",\"aproveFollows\":true}\n  ],\n  \"version\": 1\n}\n")
        #expect(throws: Diagnostic(
            "unknown key \"aproveFollows\" (did you mean \"approveFollows\"?); expected approveFollows, created, gender, handle, location, name, seeking",
            at: SourceLocation(file: "content/store.json", line: 3, column: 60)
        )) { try site.read() }
        try site.writeStore("{\"follows\": [[\"alice\", \"bob\"]], \"version\": 1}")
        #expect(throws: Diagnostic("expected ',' and the time created", at: SourceLocation(file: "content/store.json", line: 1, column: 29))) { try site.read() }
    }

    @Test func aStoreFromANewerTomoIsRefusedAndNotRewritten() throws {
        let site = try TemporarySite()
        let newer = "{\"users\": [], \"version\": 4, \"future\": {\"x\": 1}}"
        try site.writeStore(newer)
        // The version is checked before anything else (an unknown section would be the next complaint).
        #expect(throws: Diagnostic.self) { try site.read() }
        try site.writeStore("{\"users\": [], \"version\": 4}")
        #expect(throws: Diagnostic(
            "this store was written by a newer tomo (store version 4; this tomo reads versions up to 3): upgrade tomo; the store is left as it is",
            at: SourceLocation(file: "content/store.json", line: 1, column: 26)
        )) { try site.apply { store throws(Diagnostic) in try store.addUser("bob") } }
        #expect(site.storeText() == "{\"users\": [], \"version\": 4}")
    }

    /// The version as written, however large: a newer tomo's, never "versions start at 1".
    @Test(arguments: ["9007199254740993", "9223372036854775807", "18446744073709551616"])
    func aVeryLargeVersionIsANewerTomosAsWritten(version: String) throws {
        let site = try TemporarySite()
        try site.writeStore("{\"users\": [], \"version\": \(version)}")
        #expect(throws: Diagnostic(
            "this store was written by a newer tomo (store version \(version); this tomo reads versions up to 3): upgrade tomo; the store is left as it is",
            at: SourceLocation(file: "content/store.json", line: 1, column: 26)
        )) { try site.read() }
    }

    /// A number JSON does not write (`010`, which Swift reads as ten and some readers as eight)
    /// is an error at it, naming the number and how to write it, in a part a command reads or
    /// only copies; the file is left as it was.
    @Test(arguments: [
        (#"{"users": [], "version": 01}"#, "01: numbers may not start with 0: write 1 (or put the value in quotes to keep it as text)", 26),
        (#"{"users": [], "lastSequence": 010, "version": 3}"#, "010: numbers may not start with 0: write 10 (or put the value in quotes to keep it as text)", 31),
        (#"{"users": [{"created": "2026-01-01T00:00:00.000Z", "handle": "alice", "lat": -035.5, "sequence": 1}], "version": 3}"#, "-035.5: numbers may not start with 0: write -35.5 (or put the value in quotes to keep it as text)", 78),
        (#"{"users": [], "likes": {"a/b": [00]}, "version": 3}"#, "00: numbers may not start with 0: write 0 (or put the value in quotes to keep it as text)", 33),
    ])
    func aNumberJSONDoesNotWriteIsAnErrorAtIt(store: String, message: String, column: Int) throws {
        let site = try TemporarySite()
        try site.writeStore(store)
        var failed: Diagnostic?
        do {
            _ = try site.store.update(sections: [.follows]) { store throws(Diagnostic) in try store.addUser("dave") }
        } catch {
            failed = error
        }
        #expect(failed?.message == message, "\(String(describing: failed))")
        #expect(failed?.location == SourceLocation(file: "content/store.json", line: 1, column: column), "\(String(describing: failed))")
        #expect(site.storeText() == store)
    }

    /// A store.json that is a link to nothing is a store that cannot be read, not "no store
    /// yet" (which a build would publish without a follow or a like); one that leads to a file
    /// of the site is read, but a command refuses to write it whole over the link (after which
    /// the file it led to would silently no longer be the store).
    @Test func aStoreThatIsALinkIsReadThroughButNeverReplaced() throws {
        let site = try TemporarySite()
        let data = site.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.storeURL.path, withDestinationPath: "../data/store.json")
        #expect(throws: Diagnostic("cannot read content/store.json: it is a symbolic link to a file that does not exist: point it at the store, or put the store itself there", at: SourceLocation(file: "content/store.json", line: 1, column: 1))) {
            try site.read()
        }
        let text = "{\"users\": [], \"version\": 3}"
        try text.write(to: data.appendingPathComponent("store.json"), atomically: false, encoding: .utf8)
        #expect(try site.read().users.isEmpty)
        #expect(throws: Diagnostic.self) { try site.apply { store throws(Diagnostic) in try store.addUser("bob") } }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: site.storeURL.path) == "../data/store.json")
        #expect(try String(contentsOf: data.appendingPathComponent("store.json"), encoding: .utf8) == text)
    }

    @Test func aStoreWithoutAVersionOrWithVersionZeroIsRefused() throws {
        let site = try TemporarySite()
        try site.writeStore("{\"users\": []}")
        #expect(throws: Diagnostic("the store has no \"version\": add \"version\": 3", at: SourceLocation(file: "content/store.json", line: 1, column: 1))) { try site.read() }
        try site.writeStore("{\"version\": 0}")
        #expect(throws: Diagnostic.self) { try site.read() }
    }

    @Test func aRefusedCommandLeavesTheFileByteForByte() throws {
        let site = try TemporarySite()
        try site.addUsers("alice")
        let before = site.storeText()
        #expect(throws: Diagnostic.self) { try site.apply { store throws(Diagnostic) in try store.follow("alice", "nobody") } }
        #expect(site.storeText() == before)
    }

    @Test func partsACommandDoesNotReadAreCopiedAsTheyWere() throws {
        let site = try TemporarySite()
        // Hand-formatted likes, which the store would write differently.
        let handLikes = "{ \"alice/a\" : [ \"bob\" ],\n      \"alice/b\": [\"carol\"] }"
        try site.writeStore("""
        {"users": [{"handle": "alice", "created": "2026-01-01T00:00:00.000Z"},
                   {"handle": "bob", "created": "2026-01-01T00:00:00.000Z"}],
         "likes": \(handLikes),
         "version": 1}
        """)
        _ = try site.store.update(sections: [.follows, .blocks]) { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(site.storeText().contains("  \"likes\": \(handLikes),\n"))
        #expect(try site.read().likers("alice/a") == ["bob"])
        #expect(try site.read().following("alice") == ["bob"])
    }

    @Test func aSyntaxErrorInAPartNotReadIsStillRefused() throws {
        let site = try TemporarySite()
        try site.writeStore("{\"users\": [], \"likes\": {\"alice/a\": [\"bob\" \"carol\"]}, \"version\": 1}")
        #expect(throws: Diagnostic("expected ',' or ']' in the array: put a comma between two values, or close the array with ]", at: SourceLocation(file: "content/store.json", line: 1, column: 43))) {
            try site.store.update(sections: [.follows]) { store throws(Diagnostic) in try store.addUser("dave") }
        }
    }

    /// A string of a part a command does not read is held to the rules of one it reads: what
    /// `tomo check` refuses (bytes that are not UTF-8, an escape of a control character or of
    /// half a surrogate pair) is refused, not written back (`partsACommandDoesNotReadAreCopiedAsTheyWere`
    /// shows fine ones copied as they were).
    @Test(arguments: [
        [UInt8]("{\"users\": [], \"likes\": {\"alice/a\": [\"b".utf8) + [0xFF] + Array("\"]}, \"version\": 1}".utf8),
        Array("{\"users\": [], \"likes\": {\"alice/\\u001b\": [\"bob\"]}, \"version\": 1}".utf8),
        Array("{\"users\": [], \"reports\": [{\"reason\": \"x\\ud800\"}], \"version\": 1}".utf8),
    ])
    func aStringOfAPartNotReadIsHeldToTheRulesOfOneRead(bytes: [UInt8]) throws {
        let site = try TemporarySite()
        try Data(bytes).write(to: site.storeURL)
        var failed: Diagnostic?
        do {
            _ = try site.store.update(sections: [.follows]) { store throws(Diagnostic) in try store.addUser("dave") }
        } catch {
            failed = error
        }
        #expect(failed?.location?.file == "content/store.json", "\(String(describing: failed))")
        #expect(try Data(contentsOf: site.storeURL) == Data(bytes))
    }

    @Test func anUnsortedHandEditedStoreIsPutInOrder() throws {
        let site = try TemporarySite()
        try site.writeStore("""
        {"users": [{"handle": "bob", "created": "2026-01-02T00:00:00.000Z"}, {"handle": "alice", "created": "2026-01-01T00:00:00.000Z"}],
         "follows": [["bob", "alice", "t2"], ["alice", "bob", "t1"], ["bob", "alice", "t3"]],
         "version": 1}
        """)
        let store = try site.read()
        #expect(store.users.map(\.handle) == ["alice", "bob"])
        #expect(store.follows.map(\.created) == ["t1", "t3"])  // sorted; of a duplicate the last one
        #expect(store.following("alice") == ["bob"] && store.following("bob") == ["alice"])
    }

    /// Version 1 knew only creation times: its users are numbered as it listed them (newest
    /// first by time, ties by handle), its copies of display names are dropped, its errors keep
    /// their places, and the first write is the current version.
    @Test func aVersion1StoreIsReadInRegistrationOrderAndWrittenAsTheCurrentVersion() throws {
        let site = try TemporarySite()
        try site.writeStore("""
        {"users": [
           {"handle": "cat", "created": "2026-01-01T00:00:00.002Z", "name": "Cat"},
           {"handle": "bob", "created": "2026-01-01T00:00:00.001Z", "name": "Bob"},
           {"handle": "amy", "created": "2026-01-01T00:00:00.001Z", "name": "Amy"},
           {"handle": "dan", "created": "2026-01-01T00:00:00.000Z"}],
         "follows": [["amy", "bob", "2026-01-02T00:00:00.000Z"]],
         "version": 1}
        """)
        #expect(try site.read().usersNewestFirst.map(\.handle) == ["cat", "amy", "bob", "dan"])
        try site.apply { store throws(Diagnostic) in try store.addUser("eve", at: "2026-01-01T00:00:00.000Z") }
        let store = try site.read()
        #expect(store.usersNewestFirst.map(\.handle) == ["eve", "cat", "amy", "bob", "dan"])
        #expect(store.usersNewestFirst.map(\.sequence) == [5, 4, 3, 2, 1])
        #expect(store.following("amy") == ["bob"])
        #expect(site.storeText().contains("\"version\": 3"))
        #expect(!site.storeText().contains("\"name\""))

        try site.writeStore("{\"version\": 1,\n \"users\": [{\"handle\": \"amy\", \"created\": \"t\", \"colour\": 1}]}")
        #expect(throws: Diagnostic(
            "unknown key \"colour\"; expected approveFollows, created, gender, handle, location, name, seeking",
            at: SourceLocation(file: "content/store.json", line: 2, column: 46)
        )) { try site.read() }
    }

    @Test func aVersion2UserNeedsItsSequence() throws {
        let site = try TemporarySite()
        try site.writeStore("{\"version\": 2, \"users\": [{\"handle\": \"amy\", \"created\": \"t\"}]}")
        #expect(throws: Diagnostic(
            "user amy has no \"sequence\" (its registration order): add one higher than every other user's",
            at: SourceLocation(file: "content/store.json", line: 1, column: 26)
        )) { try site.read() }
        try site.writeStore("{\"version\": 2, \"users\": [{\"handle\": \"amy\", \"created\": \"t\", \"sequence\": 1.5}]}")
        #expect(throws: Diagnostic.self) { try site.read() }
        try site.writeStore("{\"version\": 2, \"users\": [{\"handle\": \"amy\", \"created\": \"t\", \"name\": \"Amy\", \"sequence\": 1}]}")
        #expect(throws: Diagnostic.self) { try site.read() }
    }
}
