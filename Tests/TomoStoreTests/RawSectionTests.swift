import Foundation
import Testing
import TomoCore
@testable import TomoStore

/// `.followPairs`: follow commands on a big store keep the accepted follows as the file's bytes.
/// Whatever they do, the file must come out exactly as the fully decoded way writes it.
@Suite struct FollowPairsTests {
    /// Applies `rule` to the same file twice, reading follows fully and as pairs.
    private func bothWays(_ text: String, _ rule: (inout Store) throws(Diagnostic) -> Outcome) throws -> (full: String, pairs: String, pairsOutcome: Outcome) {
        let full = try TemporarySite()
        let pairs = try TemporarySite()
        try full.writeStore(text)
        try pairs.writeStore(text)
        _ = try full.store.update(sections: [.follows, .likes, .blocks], rule)
        let outcome = try pairs.store.update(sections: [.followPairs, .likePairs, .blocks], rule)
        return (full.storeText(), pairs.storeText(), outcome)
    }

    private static func sortedStore() throws -> String {
        let site = try TemporarySite()
        try site.apply { store throws(Diagnostic) in
            for handle in ["amy", "bob", "cat", "dan", "eve", "zoe"] { _ = try store.addUser(handle, at: "2026-01-01T00:00:00.000Z") }
            _ = try store.updateUser("eve") { $0.approveFollows = true }
            for (from, to) in [("bob", "cat"), ("bob", "dan"), ("cat", "bob"), ("dan", "bob"), ("dan", "eve"), ("zoe", "amy")] {
                _ = try store.follow(from, to, at: "2026-01-02T00:00:00.000Z")
            }
            return .changed("")
        }
        return site.storeText()
    }

    @Test(arguments: [
        ("amy", "bob"),  // before every record
        ("cat", "dan"),  // in the middle
        ("zoe", "bob"),  // after every record
        ("amy", "eve"),  // a request
    ])
    func followWritesWhatAFullReadWouldWrite(from: String, to: String) throws {
        let result = try bothWays(try Self.sortedStore()) { store throws(Diagnostic) in try store.follow(from, to, at: "2026-01-03T00:00:00.000Z") }
        #expect(result.pairs == result.full)
        #expect(result.pairsOutcome.changed)
    }

    @Test func repeatsUnfollowsAcceptsDeclinesAndBlocksMatchTheFullRead() throws {
        let text = try Self.sortedStore()
        var result = try bothWays(text) { store throws(Diagnostic) in try store.follow("bob", "dan") }
        #expect(result.pairsOutcome == .unchanged("bob already follows dan"))
        result = try bothWays(text) { store throws(Diagnostic) in try store.unfollow("cat", "bob") }
        #expect(result.pairs == result.full && result.pairsOutcome.changed)
        result = try bothWays(text) { store throws(Diagnostic) in try store.accept("eve", "dan") }
        #expect(result.pairs == result.full && result.pairsOutcome.changed)
        result = try bothWays(text) { store throws(Diagnostic) in try store.decline("eve", "dan") }
        #expect(result.pairs == result.full && result.pairsOutcome.changed)
        result = try bothWays(text) { store throws(Diagnostic) in try store.block("bob", "dan", at: "2026-01-03T00:00:00.000Z") }
        #expect(result.pairs == result.full)
        #expect(result.pairsOutcome.message == "bob now blocks dan (removed 2 follows or requests between them)")
        // Several changes in one update: unfollow everything, then follow again.
        result = try bothWays(text) { store throws(Diagnostic) in
            for (from, to) in [("bob", "cat"), ("bob", "dan"), ("cat", "bob"), ("dan", "bob"), ("zoe", "amy")] { _ = try store.unfollow(from, to) }
            return try store.follow("amy", "zoe", at: "2026-01-03T00:00:00.000Z")
        }
        #expect(result.pairs == result.full)
    }

    @Test func aHandEditedSectionOutOfOrderIsDecodedInsteadAndStillRight() throws {
        let text = """
        {"users": [{"handle":"amy","created":"t"},{"handle":"bob","created":"t"},{"handle":"cat","created":"t"}],
         "follows": [["cat","amy","t1"], ["amy","bob","t3"]],
         "version": 1}
        """
        let result = try bothWays(text) { store throws(Diagnostic) in try store.follow("bob", "cat", at: "t4") }
        #expect(result.pairs == result.full)
        #expect(result.pairs.contains("[\"amy\",\"bob\",\"t3\"],\n    [\"bob\",\"cat\",\"t4\"],\n    [\"cat\",\"amy\",\"t1\"]"))
    }

    @Test func oddSpacingIsCopiedRecordByRecordAndReadsTheSame() throws {
        let text = """
        {"users": [{"handle":"amy","created":"t"},{"handle":"bob","created":"t"},{"handle":"cat","created":"t"}],
         "follows": [ ["amy", "bob", "t1"],["bob","amy","t2"] ,
            ["cat","amy","t3"]],
         "version": 1}
        """
        let result = try bothWays(text) { store throws(Diagnostic) in try store.unfollow("bob", "amy") }
        let full = try StoreDecoder.decode(Array(result.full.utf8), file: "full")
        let pairs = try StoreDecoder.decode(Array(result.pairs.utf8), file: "pairs")
        #expect(pairs.follows == full.follows)
        #expect(pairs.follows.map(\.created) == ["t1", "t3"])
    }
}

/// `.likePairs`: like and unlike keep the other posts' likes as the file's bytes.
@Suite struct LikePairsTests {
    private static let users = ["amy", "bob", "cat", "dan"]

    private func bothWays(_ text: String, _ rule: (inout Store) throws(Diagnostic) -> Outcome) throws -> (full: String, pairs: String, pairsOutcome: Outcome) {
        let full = try TemporarySite()
        let pairs = try TemporarySite()
        try full.writeStore(text)
        try pairs.writeStore(text)
        // A like reads `hidden` too: a hidden post cannot be liked.
        _ = try full.store.update(sections: [.likes, .follows, .blocks, .hidden], rule)
        let outcome = try pairs.store.update(sections: [.likePairs, .followPairs, .blocks, .hidden], rule)
        return (full.storeText(), pairs.storeText(), outcome)
    }

    private static func storeWithLikes() throws -> String {
        let site = try TemporarySite()
        try site.apply { store throws(Diagnostic) in
            for handle in users { _ = try store.addUser(handle, at: "2026-01-01T00:00:00.000Z") }
            for (user, post) in [("bob", "amy/b"), ("cat", "amy/b"), ("amy", "bob/a"), ("dan", "cat/z")] {
                _ = try store.like(user, try PostID(parsing: post), visibility: .public)
            }
            return .changed("")
        }
        return site.storeText()
    }

    @Test(arguments: [
        ("dan", "amy/a"),  // a new post, before every other
        ("dan", "amy/b"),  // a post with likes
        ("amy", "bob/b"),  // a new post in the middle
        ("amy", "dan/x"),  // a new post after every other
    ])
    func likeWritesWhatAFullReadWouldWrite(user: String, post: String) throws {
        let id = try PostID(parsing: post)
        let result = try bothWays(try Self.storeWithLikes()) { store throws(Diagnostic) in try store.like(user, id, visibility: .public) }
        #expect(result.pairs == result.full)
        #expect(result.pairsOutcome.changed)
    }

    @Test func repeatsAndUnlikesMatchTheFullRead() throws {
        let text = try Self.storeWithLikes()
        var result = try bothWays(text) { store throws(Diagnostic) in try store.like("bob", PostID(handle: "amy", slug: "b"), visibility: .public) }
        #expect(result.pairsOutcome == .unchanged("bob already likes amy/b"))
        result = try bothWays(text) { store throws(Diagnostic) in try store.unlike("bob", PostID(handle: "amy", slug: "b")) }
        #expect(result.pairs == result.full && result.pairsOutcome.changed)
        // The last like of a post takes its line with it.
        result = try bothWays(text) { store throws(Diagnostic) in try store.unlike("amy", PostID(handle: "bob", slug: "a")) }
        #expect(result.pairs == result.full && !result.pairs.contains("bob/a"))
        #expect(try StoreDecoder.decode(Array(result.pairs.utf8), file: "s").likeCount("amy/b") == 2)
    }

    /// A block removes the likes between the two, both ways, from the file's bytes as from the
    /// decoded likes; the other posts' likes stay.
    @Test func aBlockRemovesTheLikesBetweenTheTwoAsAFullReadWould() throws {
        let text = try Self.storeWithLikes()
        let result = try bothWays(text) { store throws(Diagnostic) in try store.block("bob", "amy", at: "2026-01-03T00:00:00.000Z") }
        #expect(result.pairs == result.full)
        #expect(result.pairsOutcome.message == "bob now blocks amy (removed 2 likes between them)")
        let store = try StoreDecoder.decode(Array(result.pairs.utf8), file: "s")
        #expect(store.likers("amy/b") == ["cat"] && store.likers("bob/a") == [] && store.likers("cat/z") == ["dan"])
    }

    @Test func aHandEditedSectionOutOfOrderIsDecodedInsteadAndStillRight() throws {
        let text = """
        {"users": [{"handle":"amy","created":"t"},{"handle":"bob","created":"t"}],
         "likes": {"bob/z": ["amy"], "amy/a": ["bob", "amy", "bob"]},
         "version": 1}
        """
        let result = try bothWays(text) { store throws(Diagnostic) in try store.unlike("bob", PostID(handle: "amy", slug: "a")) }
        #expect(result.pairs == result.full)
        #expect(result.pairs.contains("\"amy/a\": [\"amy\"],\n    \"bob/z\": [\"amy\"]"))
    }
}
