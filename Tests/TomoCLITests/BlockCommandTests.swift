import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// `tomo block A B` ends likes both ways, as it ends follows: in the store and on the pages.
@Suite struct BlockCommandTests {
    /// The demo's small real JPEG, to post from tests.
    static let photo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    /// alice, bob and carol, two posts each, and everyone liking everyone else's posts.
    func likedSite() throws -> TemporaryFolder {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\nbaseURL: https://example.com/\n"])
        let users = ["alice", "bob", "carol"]
        for handle in users { #expect(runTomo(["user", "add", handle], in: site.url).status == 0) }
        for handle in users {
            for slug in ["one", "two"] {
                let added = runTomo(["post", "add", handle, Self.photo.path, "--slug", slug, "--alt", "a photo", "--date", "2026-05-01"], in: site.url)
                #expect(added.status == 0, "\(added.error)")
            }
        }
        for liker in users {
            for owner in users where owner != liker {
                for slug in ["one", "two"] { #expect(runTomo(["like", liker, "\(owner)/\(slug)"], in: site.url).status == 0) }
            }
        }
        return site
    }

    func likers(_ post: String, in site: TemporaryFolder) throws -> [String] {
        try StoreFile(site: site.url).read().likers(post)
    }

    @Test func blockingRemovesTheLikesOfBothOnEachOthersPostsAndNoOthers() throws {
        let site = try likedSite()
        let blocked = runTomo(["block", "alice", "bob"], in: site.url)
        #expect(blocked.status == 0, "\(blocked.error)")
        #expect(blocked.output == "alice now blocks bob (removed 4 likes between them)\n")
        for slug in ["one", "two"] {
            #expect(try likers("alice/\(slug)", in: site) == ["carol"])
            #expect(try likers("bob/\(slug)", in: site) == ["carol"])
            #expect(try likers("carol/\(slug)", in: site) == ["alice", "bob"])
        }
        // New likes are refused either way until the unblock.
        #expect(runTomo(["like", "bob", "alice/one"], in: site.url).status == 1)
        #expect(runTomo(["like", "alice", "bob/one"], in: site.url).error.contains("alice blocks bob, so alice cannot like bob/one"))
        #expect(runTomo(["unblock", "alice", "bob"], in: site.url).status == 0)
        #expect(try likers("alice/one", in: site) == ["carol"], "an unblock brings nothing back")
        #expect(runTomo(["like", "bob", "alice/one"], in: site.url).status == 0)
    }

    /// The built pages count only what is left: the like counts and the "Liked by" lists.
    @Test func theBuiltPagesDropTheRemovedLikes() throws {
        let site = try likedSite()
        #expect(runTomo(["block", "bob", "alice"], in: site.url).status == 0)
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        func page(_ path: String) throws -> String {
            try String(contentsOf: site.url.appendingPathComponent("public/\(path)"), encoding: .utf8)
        }
        let alicePost = try page("alice/posts/one/index.html")
        #expect(alicePost.contains(#"data-post-id="alice/one" data-like-count="1""#))
        let likedBy = try #require(alicePost.components(separatedBy: #"<section class="likers">"#).last)
        #expect(likedBy.contains(#"data-handle="carol""#) && !likedBy.contains(#"data-handle="bob""#))
        #expect(try page("bob/posts/two/index.html").contains(#"data-post-id="bob/two" data-like-count="1""#))
        #expect(try page("carol/posts/one/index.html").contains(#"data-post-id="carol/one" data-like-count="2""#))
        #expect(try page("alice/index.html").contains(#"data-post-id="alice/two" data-like-count="1""#))
    }

    /// In a batch the likes may still wait to be sorted into place (bulk inserts): the block
    /// finds them there too.
    @Test func aBlockInABatchRemovesLikesMadeEarlierInTheSameBatch() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\n"])
        try site.writePost("alice/one")
        try site.writePost("bob/one")
        try site.write("batch.txt", "user add alice\nuser add bob\nlike bob alice/one\nlike alice bob/one\nblock alice bob\n")
        let result = runTomo(["batch", "batch.txt"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        let store = try StoreFile(site: site.url).read()
        #expect(store.likers("alice/one") == [] && store.likers("bob/one") == [])
    }
}
