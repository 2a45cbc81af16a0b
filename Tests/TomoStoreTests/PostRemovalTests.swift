import Testing
import TomoCore
@testable import TomoStore

@Suite struct PostRemovalTests {
    @Test func removingAPostForgetsItsLikesReportsAndHiddenMark() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        let sunset = PostID(handle: "alice", slug: "sunset")
        let other = PostID(handle: "alice", slug: "sunset-2")
        try site.apply { store throws(Diagnostic) in
            _ = try store.like("bob", sunset, visibility: .public)
            _ = try store.like("carol", sunset, visibility: .public)
            _ = try store.like("bob", other, visibility: .public)
            _ = try store.report("carol", sunset, reason: "spam", visibility: .public)
            _ = try store.report("carol", other, reason: "spam", visibility: .public)
            return try store.hidePost(sunset, visibility: .public)
        }
        #expect(try site.read().relations(of: sunset) == (likes: 2, reports: 1, hidden: true))
        let outcome = try site.apply { store in store.removePost(sunset) }
        #expect(outcome == .changed("alice/sunset: removed 2 likes, 1 report and its hidden mark from the store"))
        let store = try site.read()
        #expect(store.relations(of: sunset) == (likes: 0, reports: 0, hidden: false))
        #expect(store.likers("alice/sunset-2") == ["bob"])
        #expect(store.reports.map(\.post) == ["alice/sunset-2"])
    }

    @Test func removingAPostTheStoreDoesNotNameChangesNothing() throws {
        let site = try TemporarySite()
        try site.addUsers("alice")
        let outcome = try site.apply { store in store.removePost(PostID(handle: "alice", slug: "x")) }
        #expect(outcome == .unchanged("the store names alice/x nowhere"))
    }
}
