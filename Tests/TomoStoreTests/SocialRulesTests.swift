import Foundation
import Testing
import TomoCore
@testable import TomoStore

/// One test (or more) per rule of DESIGN.md "Social rules", through the library on real folders.
@Suite struct FollowRulesTests {
    @Test func followOfAnOpenAccountCountsAtOnce() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        let outcome = try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(outcome == .changed("alice now follows bob"))
        let store = try site.read()
        #expect(store.following("alice") == ["bob"])
        #expect(store.followers("bob") == ["alice"])
    }

    @Test func followOfAUserWhoApprovesWaitsUntilAccepted() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.updateUser("bob") { $0.approveFollows = true } }
        let outcome = try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(outcome.changed && outcome.message.contains("tomo accept bob alice"))
        var store = try site.read()
        #expect(store.requests("bob") == ["alice"])
        // Only accepted follows count.
        #expect(store.followers("bob").isEmpty)
        #expect(store.following("alice").isEmpty)

        try site.apply { store throws(Diagnostic) in try store.accept("bob", "alice") }
        store = try site.read()
        #expect(store.requests("bob").isEmpty)
        #expect(store.followers("bob") == ["alice"])
        #expect(try site.apply { store throws(Diagnostic) in try store.accept("bob", "alice") } == .unchanged("alice already follows bob"))
    }

    /// A request made while the user approved follows, asked again once they no longer do,
    /// is a follow: nobody is asked to accept it any more.
    @Test func aRequestAskedAgainAfterApprovalIsTurnedOffIsAFollow() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.updateUser("bob") { $0.approveFollows = true } }
        try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }.changed == false, "still waiting")
        try site.apply { store throws(Diagnostic) in try store.updateUser("bob") { $0.approveFollows = false } }
        let outcome = try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(outcome.changed && outcome.message.hasPrefix("alice now follows bob"), "\(outcome.message)")
        let store = try site.read()
        #expect(store.requests("bob").isEmpty && store.followers("bob") == ["alice"])
    }

    /// Requests of one millisecond (a `tomo batch`) are oldest first in the order they were
    /// made, in memory and after the store was written and read again; time still comes first.
    @Test func requestsOfOneMillisecondKeepTheOrderTheyWereMade() throws {
        let site = try TemporarySite()
        try site.addUsers("bob", "zed", "mia", "amy", "cat")
        try site.apply { store throws(Diagnostic) in try store.updateUser("bob") { $0.approveFollows = true } }
        let time = "2026-12-07T10:00:00.000Z"
        try site.apply { store throws(Diagnostic) in
            for handle in ["zed", "mia"] { _ = try store.follow(handle, "bob", at: time) }
            #expect(store.requests("bob") == ["zed", "mia"])
            return .changed("two")
        }
        try site.apply { store throws(Diagnostic) in try store.follow("amy", "bob", at: time) }
        try site.apply { store throws(Diagnostic) in try store.follow("cat", "bob", at: "2026-12-07T09:59:59.999Z") }
        #expect(try site.read().requests("bob") == ["cat", "zed", "mia", "amy"])
        // Withdrawn and asked again, a request is the newest.
        try site.apply { store throws(Diagnostic) in try store.unfollow("zed", "bob") }
        try site.apply { store throws(Diagnostic) in try store.follow("zed", "bob", at: time) }
        #expect(try site.read().requests("bob") == ["cat", "mia", "amy", "zed"])
        // A rename keeps a request's place.
        try site.apply { store throws(Diagnostic) in try store.renameUser("mia", to: "aaa") }
        #expect(try site.read().requests("bob") == ["cat", "aaa", "amy", "zed"])
    }

    @Test func declineRemovesTheRequestAndRepeatingItChangesNothing() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.updateUser("bob") { $0.approveFollows = true } }
        try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(try site.apply { store throws(Diagnostic) in try store.decline("bob", "alice") }.changed)
        #expect(try site.read().requests("bob").isEmpty)
        #expect(try site.apply { store throws(Diagnostic) in try store.decline("bob", "alice") }.changed == false)
        #expect(throws: Diagnostic.self) { try site.apply { store throws(Diagnostic) in try store.accept("bob", "alice") } }
    }

    @Test func mutualAcceptedFollowsAreListedFromBothEnds() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        try site.apply { store throws(Diagnostic) in
            _ = try store.follow("alice", "bob")
            _ = try store.follow("bob", "alice")
            return try store.follow("alice", "carol")
        }
        let store = try site.read()
        #expect(store.following("alice") == ["bob", "carol"] && store.followers("alice") == ["bob"])
        #expect(store.following("carol").isEmpty && store.followers("carol") == ["alice"])
    }

    @Test func aRepeatedFollowIsANoOpThatLeavesTheFileAlone() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        let before = site.storeText()
        let outcome = try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(outcome == .unchanged("alice already follows bob"))
        #expect(site.storeText() == before)
        #expect(try site.read().follows.count == 1)
    }

    @Test func followingYourselfOrAnUnknownUserIsRefused() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        #expect(throws: Diagnostic("alice cannot follow themselves")) {
            try site.apply { store throws(Diagnostic) in try store.follow("alice", "alice") }
        }
        #expect(throws: Diagnostic("unknown user \"bbo\" (did you mean \"bob\"?): register them with `tomo user add bbo`")) {
            try site.apply { store throws(Diagnostic) in try store.follow("alice", "bbo") }
        }
    }

    @Test func unfollowEndsAFollowOrWithdrawsARequest() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(try site.apply { store throws(Diagnostic) in try store.unfollow("alice", "bob") } == .changed("alice no longer follows bob"))
        #expect(try site.apply { store throws(Diagnostic) in try store.unfollow("alice", "bob") }.changed == false)
        #expect(try site.read().following("alice").isEmpty)
    }
}

@Suite struct BlockRulesTests {
    @Test func blockRemovesFollowsAndRequestsInBothDirections() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        try site.apply { store throws(Diagnostic) in
            _ = try store.updateUser("alice") { $0.approveFollows = true }
            _ = try store.follow("alice", "bob")
            _ = try store.follow("bob", "alice")  // a request: alice approves follows
            return try store.follow("carol", "bob")
        }
        #expect(try site.read().requests("alice") == ["bob"])
        let outcome = try site.apply { store throws(Diagnostic) in try store.block("alice", "bob") }
        #expect(outcome.message == "alice now blocks bob (removed 2 follows or requests between them)")
        let store = try site.read()
        #expect(store.following("alice").isEmpty)
        #expect(store.requests("alice").isEmpty)
        #expect(store.followers("bob") == ["carol"])
        #expect(store.blocking("alice") == ["bob"])
    }

    @Test func blockRefusesNewFollowsEitherWayUntilUnblock() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.block("alice", "bob") }
        #expect(throws: Diagnostic("alice blocks bob, so alice cannot follow bob: `tomo unblock alice bob` first")) {
            try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        }
        #expect(throws: Diagnostic("alice blocks bob, so bob cannot follow alice")) {
            try site.apply { store throws(Diagnostic) in try store.follow("bob", "alice") }
        }
        #expect(try site.apply { store throws(Diagnostic) in try store.block("alice", "bob") } == .unchanged("alice already blocks bob"))
        try site.apply { store throws(Diagnostic) in try store.unblock("alice", "bob") }
        #expect(try site.apply { store throws(Diagnostic) in try store.follow("bob", "alice") }.changed)
    }

    @Test func timelineShowsOwnAndFollowedPostsMinusBlocksEitherWay() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol", "dave", "erin")
        try site.apply { store throws(Diagnostic) in
            _ = try store.updateUser("erin") { $0.approveFollows = true }
            for other in ["bob", "carol", "dave", "erin"] { _ = try store.follow("alice", other) }
            return .changed("")
        }
        #expect(try site.read().timelineOwners("alice") == ["alice", "bob", "carol", "dave"])  // erin: only requested
        try site.apply { store throws(Diagnostic) in try store.block("alice", "bob") }  // alice blocks bob
        try site.apply { store throws(Diagnostic) in try store.block("carol", "alice") }  // carol blocks alice
        #expect(try site.read().timelineOwners("alice") == ["alice", "dave"])
        #expect(try site.read().isBlocked(between: "alice", "carol"))
    }
}

@Suite struct LikeRulesTests {
    @Test func oneLikePerUserAndPostAndTheCountIsTheNumberOfLikes() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        let post = try PostID(parsing: "alice/sunset")
        #expect(try site.apply { store throws(Diagnostic) in try store.like("bob", post, visibility: .public) } == .changed("bob likes alice/sunset (1 like)"))
        #expect(try site.apply { store throws(Diagnostic) in try store.like("bob", post, visibility: .public) } == .unchanged("bob already likes alice/sunset"))
        try site.apply { store throws(Diagnostic) in try store.like("carol", post, visibility: .public) }
        #expect(try site.read().likeCount("alice/sunset") == 2)
        try site.apply { store throws(Diagnostic) in try store.unlike("bob", post) }
        #expect(try site.read().likers("alice/sunset") == ["carol"])
    }

    @Test func likeIsRefusedWhenTheOwnerBlocksTheUser() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.block("alice", "bob") }
        #expect(throws: Diagnostic("alice blocks bob, so bob cannot like alice/sunset")) {
            try site.apply { store throws(Diagnostic) in try store.like("bob", PostID(handle: "alice", slug: "sunset"), visibility: .public) }
        }
        #expect(try site.read().likeCount("alice/sunset") == 0)
    }

    @Test(arguments: [PostVisibility.followers, .private])
    func likeIsRefusedForAPostThatIsNotPublic(visibility: PostVisibility) throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        #expect(throws: Diagnostic("alice/secret is not public (visibility: \(visibility.rawValue)): only public posts can be liked")) {
            try site.apply { store throws(Diagnostic) in try store.like("bob", PostID(handle: "alice", slug: "secret"), visibility: visibility) }
        }
    }

    /// A post file in the folder of a handle no one has (made by hand, or its owner renamed
    /// between the read of the post and the write of the store): a like or a report under that
    /// id would be counted by no page, so both are refused and the store is left as it was.
    @Test func aPostWhoseOwnerIsNotRegisteredCannotBeLikedOrReported() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in try store.renameUser("alice", to: "alicia") }
        let old = PostID(handle: "alice", slug: "sun")
        let refusal = Diagnostic("alice/sun is in the posts of alice, who is not registered (renamed or removed?): give the post's id under its owner's handle, as `tomo post list` shows it")
        let before = site.storeText()
        #expect(throws: refusal) { try site.apply { store throws(Diagnostic) in try store.like("bob", old, visibility: .public) } }
        #expect(throws: refusal) { try site.apply { store throws(Diagnostic) in try store.report("bob", old, reason: "spam", visibility: .public) } }
        #expect(site.storeText() == before)
        #expect(try site.apply { store throws(Diagnostic) in try store.like("bob", PostID(handle: "alicia", slug: "sun"), visibility: .public) } == .changed("bob likes alicia/sun (1 like)"))
    }

    @Test func likeOfAMissingPostIsRefused() throws {
        let site = try TemporarySite()
        try site.addUsers("bob")
        #expect(throws: Diagnostic("no post alice/nope: content/posts/alice/nope.md does not exist")) {
            try site.apply { store throws(Diagnostic) in try store.like("bob", PostID(handle: "alice", slug: "nope"), visibility: nil) }
        }
    }
}

@Suite struct ReportAndHideTests {
    @Test func reportsAreListedOncePerUserAndPost() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        let post = PostID(handle: "alice", slug: "sunset")
        try site.apply { store throws(Diagnostic) in try store.report("bob", post, reason: "not hers", visibility: .public, at: "2026-05-01T00:00:00.000Z") }
        #expect(try site.apply { store throws(Diagnostic) in try store.report("bob", post, reason: "not hers", visibility: .public) }.changed == false)
        // Another reason replaces the reason; the report keeps its date.
        #expect(try site.apply { store throws(Diagnostic) in try store.report("bob", post, reason: "again", visibility: .public) }.changed)
        #expect(try site.read().reports == [Report(user: "bob", post: "alice/sunset", reason: "again", created: "2026-05-01T00:00:00.000Z")])
        #expect(throws: Diagnostic.self) {
            try site.apply { store throws(Diagnostic) in try store.report("bob", post, reason: "  ", visibility: .public) }
        }
    }

    @Test func hiddenPostsStayHiddenUntilUnhidden() throws {
        let site = try TemporarySite()
        let post = PostID(handle: "alice", slug: "sunset")
        try site.apply { store throws(Diagnostic) in try store.hidePost(post, visibility: .public) }
        #expect(try site.read().isHidden("alice/sunset"))
        #expect(try site.apply { store throws(Diagnostic) in try store.hidePost(post, visibility: .public) }.changed == false)
        try site.apply { store in store.unhidePost(post) }
        #expect(try site.read().isHidden("alice/sunset") == false)
    }
}

@Suite struct PickRulesTests {
    @Test func mutualAcceptsAreMatchesAndAPickCanChange() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        try site.apply { store throws(Diagnostic) in try store.pick("alice", "bob", .accept) }
        #expect(try site.apply { store throws(Diagnostic) in try store.pick("bob", "alice", .accept) } == .changed("bob accepts alice: it's a match"))
        try site.apply { store throws(Diagnostic) in
            _ = try store.pick("alice", "carol", .accept)
            return try store.pick("carol", "alice", .reject)
        }
        #expect(try site.read().matches("alice") == ["bob"])
        #expect(try site.apply { store throws(Diagnostic) in try store.pick("bob", "alice", .accept) }.changed == false)
        try site.apply { store throws(Diagnostic) in try store.pick("bob", "alice", .reject) }
        #expect(try site.read().matches("alice").isEmpty)
    }

    /// A match ends with a block, either way, as a pick across one is refused.
    @Test func aBlockEndsAMatch() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        try site.apply { store throws(Diagnostic) in
            _ = try store.pick("alice", "bob", .accept)
            return try store.pick("bob", "alice", .accept)
        }
        #expect(try site.read().matches("alice") == ["bob"])
        try site.apply { store throws(Diagnostic) in try store.block("bob", "alice") }
        let store = try site.read()
        #expect(store.matches("alice").isEmpty && store.matches("bob").isEmpty)
    }

    @Test func discoverListsNearbyUsersOfTheSoughtGenderNearestFirst() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "near", "nearer", "far", "wrong", "picked", "blocker", "noplace")
        // Tokyo Station, and points about 0.1, 0.5, 3 km north of it (1° of latitude ≈ 111.2 km).
        func at(_ km: Double) -> Location { Location(latitude: 35.6812 + km / 111.195, longitude: 139.7671) }
        try site.apply { store throws(Diagnostic) in
            _ = try store.updateUser("alice") { $0.location = at(0); $0.gender = "f"; $0.seeking = "m" }
            for (handle, km, gender) in [("near", 0.5, "m"), ("nearer", 0.1, "m"), ("far", 3.0, "m"), ("wrong", 0.2, "f"), ("picked", 0.3, "m"), ("blocker", 0.4, "m")] {
                _ = try store.updateUser(handle) { $0.location = at(km); $0.gender = gender }
            }
            _ = try store.updateUser("noplace") { $0.gender = "m" }
            _ = try store.pick("alice", "picked", .reject)
            return try store.block("blocker", "alice")
        }
        let store = try site.read()
        let found = try store.discover("alice")
        #expect(found.map(\.handle) == ["nearer", "near"])
        #expect(abs(found[0].kilometres - 0.1) < 0.001)
        #expect(try store.discover("alice", within: 5).map(\.handle) == ["nearer", "near", "far"])
        #expect(try store.discover("alice", within: 5, limit: 1).map(\.handle) == ["nearer"])
        #expect(throws: Diagnostic.self) { try store.discover("near") }  // no seeking set
    }

    @Test func greatCircleDistanceMatchesKnownCities() {
        let tokyo = Location(latitude: 35.6812, longitude: 139.7671)
        let osaka = Location(latitude: 34.7025, longitude: 135.4959)
        let distance = Store.greatCircleKilometres(tokyo, osaka)
        #expect(abs(distance - 403.5) < 2)  // Tokyo Station to Osaka Station
        #expect(Store.greatCircleKilometres(tokyo, tokyo) == 0)
    }
}

@Suite struct UserRulesTests {
    @Test func addingValidatesTheHandleAndRepeatingChangesNothing() throws {
        let site = try TemporarySite()
        #expect(throws: Diagnostic("\"search\" is reserved for the site's own pages: choose another handle")) {
            try site.apply { store throws(Diagnostic) in try store.addUser("search") }
        }
        #expect(throws: Diagnostic.self) { try site.apply { store throws(Diagnostic) in try store.addUser("../etc") } }
        try site.apply { store throws(Diagnostic) in try store.addUser("alice", at: "2026-01-01T00:00:00.000Z") }
        try site.apply { store throws(Diagnostic) in try store.addUser("bob", at: "2026-01-02T00:00:00.000Z") }
        #expect(try site.apply { store throws(Diagnostic) in try store.addUser("alice") } == .unchanged("alice is already registered"))
        let store = try site.read()
        #expect(store.usersNewestFirst.map(\.handle) == ["bob", "alice"])
    }

    /// Newest first is the order of registration, whatever the clock says: the same
    /// millisecond, or a clock set back, changes nothing; a removed and re-added user is newest.
    @Test func newestFirstIsTheOrderOfRegistrationNotOfTheClock() throws {
        let site = try TemporarySite()
        let handles = ["zed", "amy", "mia", "bob", "kai", "eve"]
        try site.apply { store throws(Diagnostic) in
            for handle in handles { _ = try store.addUser(handle, at: "2026-01-01T00:00:00.000Z") }
            return try store.addUser("old", at: "2020-01-01T00:00:00.000Z")
        }
        #expect(try site.read().usersNewestFirst.map(\.handle) == ["old"] + handles.reversed())
        try site.apply { store throws(Diagnostic) in try store.removeUser("mia") }
        try site.apply { store throws(Diagnostic) in try store.addUser("mia", at: "2026-01-01T00:00:00.000Z") }
        // The newest removed and re-added, in one process and across two.
        try site.apply { store throws(Diagnostic) in
            _ = try store.removeUser("mia")
            return try store.addUser("mia", at: "2026-01-01T00:00:00.000Z")
        }
        try site.apply { store throws(Diagnostic) in try store.renameUser("zed", to: "zoe") }
        #expect(try site.read().usersNewestFirst.map(\.handle) == ["mia", "old", "eve", "kai", "bob", "amy", "zoe"])
    }

    @Test func removingAUserRemovesEveryRelationNamingThem() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "carol")
        try site.apply { store throws(Diagnostic) in
            _ = try store.follow("alice", "bob")
            _ = try store.follow("bob", "alice")
            _ = try store.follow("carol", "alice")
            _ = try store.block("bob", "carol")
            _ = try store.like("bob", PostID(handle: "alice", slug: "a"), visibility: .public)
            _ = try store.like("carol", PostID(handle: "alice", slug: "a"), visibility: .public)
            _ = try store.like("alice", PostID(handle: "carol", slug: "c"), visibility: .public)
            _ = try store.report("carol", PostID(handle: "bob", slug: "b"), reason: "spam", visibility: .public)
            _ = try store.report("bob", PostID(handle: "carol", slug: "c"), reason: "spam", visibility: .public)
            _ = try store.pick("bob", "alice", .accept)
            return try store.hidePost(PostID(handle: "bob", slug: "b"), visibility: .public)
        }
        try site.apply { store throws(Diagnostic) in try store.removeUser("bob") }
        // The hidden marks of bob's posts stay until the command has deleted their files.
        #expect(try site.read().hiddenPosts == ["bob/b"])
        #expect(try site.read().hiddenMarksLeft(by: "bob") == 1)
        // Only the marks of posts whose files are gone go.
        try site.apply { store in store.forgetHiddenMarks(of: "bob") { _ in true } }
        #expect(try site.read().hiddenPosts == ["bob/b"])
        try site.apply { store in store.forgetHiddenMarks(of: "bob") { _ in false } }
        let store = try site.read()
        #expect(store.user("bob") == nil)
        #expect(store.follows.map { "\($0.from)>\($0.to)" } == ["carol>alice"])
        #expect(store.blocks.isEmpty && store.picks.isEmpty && store.hiddenPosts.isEmpty)
        #expect(store.likers("alice/a") == ["carol"])
        #expect(store.likers("carol/c") == ["alice"])
        #expect(store.reports.isEmpty)
        #expect(!site.storeText().contains("bob"))
    }

    @Test func renamingRewritesEveryRelationAndPostId() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob", "zed")
        try site.apply { store throws(Diagnostic) in
            _ = try store.follow("alice", "bob")
            _ = try store.follow("bob", "alice")
            _ = try store.like("bob", PostID(handle: "alice", slug: "a"), visibility: .public)
            _ = try store.like("zed", PostID(handle: "alice", slug: "a"), visibility: .public)
            _ = try store.block("alice", "zed")
            _ = try store.like("zed", PostID(handle: "bob", slug: "b"), visibility: .public)
            return try store.hidePost(PostID(handle: "alice", slug: "a"), visibility: .public)
        }
        #expect(throws: Diagnostic("bob is already registered: choose another handle or remove bob first")) {
            try site.apply { store throws(Diagnostic) in try store.renameUser("alice", to: "bob") }
        }
        try site.apply { store throws(Diagnostic) in try store.renameUser("alice", to: "zara") }
        let store = try site.read()
        #expect(store.user("alice") == nil && store.user("zara") != nil)
        #expect(store.following("zara") == ["bob"] && store.followers("zara") == ["bob"])
        #expect(store.likers("zara/a") == ["bob"], "the block removed zed's like")
        #expect(store.likers("bob/b") == ["zed"])
        #expect(store.blocking("zara") == ["zed"])
        #expect(store.isHidden("zara/a"))
        // Only the record of the rename still names alice.
        #expect(store.renames.map(\.from) == ["alice"])
        #expect(site.storeText().components(separatedBy: "alice").count == 2)
    }
}
