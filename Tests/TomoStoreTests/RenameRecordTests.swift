import Foundation
import Testing
import TomoCore
@testable import TomoStore

/// `tomo user rename` leaves a record in the store's `renames` section, which builds follow to
/// redirect old addresses: through chains, never in a loop, never over a handle in use again.
@Suite struct RenameRecordTests {
    func renamed(_ site: TemporarySite, _ steps: [(String, String)]) throws {
        for (index, (old, new)) in steps.enumerated() {
            try site.apply { store throws(Diagnostic) in try store.renameUser(old, to: new, at: "2026-01-0\(index + 1)T00:00:00.000Z") }
        }
    }

    @Test func eachRenameIsRecordedInOrderAndWrittenInItsSection() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try renamed(site, [("alice", "ann"), ("bob", "alice")])
        #expect(try site.read().renames == [
            Rename(from: "alice", to: "ann", created: "2026-01-01T00:00:00.000Z"),
            Rename(from: "bob", to: "alice", created: "2026-01-02T00:00:00.000Z"),
        ])
        #expect(site.storeText().contains("""
          "renames": [
            {"created":"2026-01-01T00:00:00.000Z","from":"alice","to":"ann"},
            {"created":"2026-01-02T00:00:00.000Z","from":"bob","to":"alice"}
          ],
          "reports": []
        """))
        // A command that does not read the section writes it back as it was.
        try site.apply { store throws(Diagnostic) in try store.addUser("carol") }
        #expect(try site.read().renames.count == 2)
    }

    /// Over every order of a few renames among four handles: each old handle leads to the
    /// handle its user has now, and no handle in use redirects.
    @Test func oldHandlesLeadToTheCurrentHandleThroughChainsAndBack() throws {
        let site = try TemporarySite()
        try site.addUsers("a", "x")
        // a→b, b→c: both old handles lead to c.
        try renamed(site, [("a", "b"), ("b", "c")])
        #expect(try site.read().renamedHandles { _ in false } == ["a": "c", "b": "c"])
        // c→a: a is in use again, b and c lead to it.
        try renamed(site, [("c", "a")])
        #expect(try site.read().renamedHandles { _ in false } == ["b": "a", "c": "a"])
        // x takes b, which someone left before: b is x's now; c still leads to a.
        try renamed(site, [("x", "b")])
        #expect(try site.read().renamedHandles { _ in false } == ["c": "a", "x": "b"])
        // A newly registered c has c for themselves; a page named x takes x.
        try site.addUsers("c")
        #expect(try site.read().renamedHandles { $0 == "x" } == [:])
    }

    /// A user's removal takes the renames that led to their handle; others' stay.
    @Test func removingAUserDropsTheRenamesThatLedToThem() throws {
        let site = try TemporarySite()
        try site.addUsers("a", "p")
        try renamed(site, [("a", "b"), ("p", "q"), ("b", "c")])
        // b is registered afresh after a left it: b's history starts at b.
        try site.addUsers("b")
        #expect(try site.read().renameHistory(of: "b") == [])
        #expect(try site.read().renameHistory(of: "c") == [2, 0])
        try site.apply { store throws(Diagnostic) in try store.removeUser("c") }
        #expect(try site.read().renames.map(\.from) == ["p"])
        #expect(try site.read().renamedHandles { _ in false } == ["p": "q"])
    }

    /// A hand-edited record naming no handle leads nowhere: its names would become paths.
    @Test func aRecordThatNamesNoHandleIsLeftOut() throws {
        let site = try TemporarySite()
        try site.writeStore("""
            {"renames": [{"created":"t","from":"../up","to":"amy"}, {"created":"t","from":"amy","to":"x/y"}, {"created":"t","from":"old","to":"amy"}],
             "users": [{"approveFollows":false,"created":"t","handle":"amy","sequence":1}], "version": 3}
            """)
        #expect(try site.read().renamedHandles { _ in false } == ["old": "amy"])
    }

    @Test func aVersion2StoreHasNoRenamesAndIsWrittenAsVersion3() throws {
        let site = try TemporarySite()
        try site.writeStore("{\"version\": 2, \"users\": [{\"handle\": \"amy\", \"created\": \"t\", \"sequence\": 1}]}")
        #expect(try site.read().renames.isEmpty)
        try renamed(site, [("amy", "ada")])
        #expect(site.storeText().contains("\"version\": 3"))
        #expect(try site.read().renamedHandles { _ in false } == ["amy": "ada"])
    }

    @Test func aBrokenRenameRecordIsAnErrorAtItsPlace() throws {
        let site = try TemporarySite()
        try site.writeStore("{\"version\": 3,\n \"renames\": [{\"from\": \"amy\", \"created\": \"t\"}]}")
        #expect(throws: Diagnostic("this rename is missing a field", at: SourceLocation(file: "content/store.json", line: 2, column: 14))) { try site.read() }
        try site.writeStore("{\"version\": 3,\n \"renames\": [{\"from\": \"amy\", \"to\": \"ada\", \"when\": \"t\"}]}")
        #expect(throws: Diagnostic("unknown key \"when\"; expected created, from, to", at: SourceLocation(file: "content/store.json", line: 2, column: 43))) { try site.read() }
    }
}
