import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoSite

@Suite struct SocialPagesTests {
    /// Alice, Bob and Carol with profiles; Dave only in the store. Bob follows Alice, Carol follows
    /// Alice, Alice follows Bob, Dave follows Alice, Carol's follow of Bob waits for approval.
    func socialSite() throws -> SiteFolder {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/bob.yaml": "name: Bob\n",
            "content/users/carol.yaml": "name: Carol\n",
        ])
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.addUser("carol", at: "2026-01-01T00:00:00.000Z")
            _ = try store.addUser("alice", at: "2026-03-01T00:00:00.000Z")
            _ = try store.addUser("bob", at: "2026-02-01T00:00:00.000Z")
            _ = try store.addUser("dave", at: "2026-04-01T00:00:00.000Z")
            _ = try store.follow("bob", "alice")
            _ = try store.follow("carol", "alice")
            _ = try store.follow("alice", "bob")
            _ = try store.updateUser("bob") { $0.approveFollows = true }
            _ = try store.follow("dave", "alice")
            _ = try store.follow("carol", "bob")
            return .changed("set up")
        }
        return site
    }

    @Test func profilesShowFollowerAndFollowingCountsFromTheStore() throws {
        let site = try socialSite()
        try site.build()
        let alice = try #require(site.page("alice/index.html"))
        #expect(alice.contains(#"<a href="/alice/followers/">2 followers</a>"#))
        #expect(alice.contains(#"<a href="/alice/following/">1 following</a>"#))
        let bob = try #require(site.page("bob/index.html"))
        #expect(bob.contains(">1 follower</a>"))
    }

    @Test func followerPagesListUsersWithTheirHandle() throws {
        let site = try socialSite()
        try site.build()
        let followers = try #require(site.page("alice/followers/index.html"))
        #expect(followers.contains(#"<li class="user-card" data-handle="bob">"#))
        #expect(followers.contains(#"<li class="user-card" data-handle="carol">"#))
        #expect(!followers.contains(#"data-handle="dave""#))
        let following = try #require(site.page("carol/following/index.html"))
        #expect(following.contains(#"data-handle="alice""#))
        #expect(!following.contains(#"data-handle="bob""#), "a pending request is not a follow")
        #expect(site.page("carol/followers/index.html")?.contains("No followers yet.") == true)
    }

    /// Registered carol, alice, bob, dave (no profile): newest first is bob, alice, carol,
    /// whatever creation times the store holds.
    @Test func theHomePageListsTheNewestRegisteredUsersFirst() throws {
        let site = try socialSite()
        try site.write("content/site.yaml", SiteFolder.siteYAML + "homeUsers: 2\n")
        try site.build()
        let home = try #require(site.page("index.html"))
        let alice = try #require(home.range(of: #"data-handle="alice""#))
        let bob = try #require(home.range(of: #"data-handle="bob""#))
        #expect(bob.lowerBound < alice.lowerBound)
        #expect(!home.contains(#"data-handle="carol""#))
    }

    @Test func aBrokenStoreStopsTheBuildWithItsLocation() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/store.json": "{\n  \"version\": 1,\n  \"users\": [oops]\n}\n"])
        let errors = try #require(site.buildErrors())
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/store.json:3:") == true)
    }
}
