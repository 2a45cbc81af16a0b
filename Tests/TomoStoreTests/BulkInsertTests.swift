import Testing
import TomoCore
@testable import TomoStore

/// Bulk inserts change what rules cost, never what they decide or leave behind.
@Suite struct BulkInsertTests {
    /// The same random mix of rules on two stores, one in bulk mode: every outcome is the same,
    /// and so is the store once the bulk ends.
    @Test func rulesDecideAndStoreTheSameInBulkMode() throws {
        var plain = Store()
        var generator = SplitMix(seed: 7)
        let users = (0..<40).map { "u\($0)" }
        for user in users { _ = try plain.addUser(user, at: "2026-01-01T00:00:00.000Z") }
        _ = try plain.updateUser("u3") { $0.approveFollows = true }
        _ = try plain.follow("u1", "u2", at: "2026-01-01T00:00:00.000Z")
        _ = try plain.like("u1", PostID(handle: "u2", slug: "p0"), visibility: .public)
        var bulk = plain
        bulk.beginBulkInserts()
        for _ in 0..<4000 {
            let a = users[Int(generator.next() % 40)], b = users[Int(generator.next() % 40)]
            let post = PostID(handle: b, slug: "p\(generator.next() % 3)")
            let time = "2026-01-01T00:00:00.000Z"
            let blocking = generator.next() % 4 == 0
            func both(_ rule: (inout Store) throws(Diagnostic) -> Outcome) {
                let plainOutcome = Result { () throws(Diagnostic) in try rule(&plain) }
                let bulkOutcome = Result { () throws(Diagnostic) in try rule(&bulk) }
                #expect("\(plainOutcome)" == "\(bulkOutcome)")
            }
            switch generator.next() % 10 {
            case 0, 1, 2: both { store throws(Diagnostic) in try store.follow(a, b, at: time) }
            case 3: both { store throws(Diagnostic) in try store.unfollow(a, b) }
            case 4: both { store throws(Diagnostic) in try store.accept(a, b) }
            case 5: both { store throws(Diagnostic) in try store.decline(a, b) }
            case 6, 7: both { store throws(Diagnostic) in try store.like(a, post, visibility: .public) }
            case 8: both { store throws(Diagnostic) in try store.unlike(a, post) }
            default: both { store throws(Diagnostic) in blocking ? try store.block(a, b, at: time) : try store.unblock(a, b) }
            }
        }
        bulk.endBulkInserts()
        #expect(bulk == plain)
        #expect(bulk.follows.count > 100 && bulk.likes.count > 20)
    }

    @Test func removingAUserInBulkModeSeesTheWaitingFollowsAndLikes() throws {
        var store = Store()
        for user in ["alice", "bob", "carol"] { _ = try store.addUser(user) }
        store.beginBulkInserts()
        _ = try store.follow("alice", "bob")
        _ = try store.follow("carol", "alice")
        _ = try store.like("alice", PostID(handle: "bob", slug: "p"), visibility: .public)
        _ = try store.removeUser("alice")
        store.endBulkInserts()
        #expect(store.follows.isEmpty)
        #expect(store.likes.isEmpty)
    }
}

/// A small seeded generator, so a failure repeats.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
