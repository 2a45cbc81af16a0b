import Foundation
import Testing
import TomoTestSupport

/// Feed ids never change (RFC 4287 §4.2.6): `tag:` URIs made of the user's registration, not
/// their handle, so `tomo user rename` and clean rebuilds keep every id, and no two entries of
/// the site share one.
@Suite struct FeedEntryIDTests {
    /// alice with three posts, bob with one; `baseURL` as given.
    func site(baseURL: String = "https://example.com/") throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: \(baseURL)\n")
        for handle in ["alice", "bob"] { try #require(runTomo(["user", "add", handle], in: site.url).status == 0) }
        for (index, id) in ["alice/sunset", "alice/rain", "alice/tram", "bob/sunset"].enumerated() {
            try write(id, day: index + 1, in: site)
        }
        return site
    }

    func write(_ id: String, day: Int, in site: TemporaryFolder) throws {
        try site.copy(sampleJPEG, to: "content/posts/\(id).jpg")
        let slug = id.split(separator: "/").last ?? ""
        try site.write("content/posts/\(id).md", "---\nphoto: \(slug).jpg\ndate: 2026-05-0\(day)\nalt: A photo\n---\n\(id).\n")
    }

    func build(_ site: TemporaryFolder, _ arguments: String...) throws -> URL {
        let run = runTomo(["build"] + arguments, in: site.url)
        try #require(run.status == 0, "\(run.error)")
        return site.url.appendingPathComponent("public")
    }

    /// The feed's id and its entries' ids, in order.
    func ids(_ path: String, in output: URL) throws -> (feed: String, entries: [String]) {
        let feed = try AtomSummary(Data(contentsOf: output.appendingPathComponent(path)))
        return (feed.feedTexts["id"] ?? "", feed.entries.map { $0["id"] ?? "" })
    }

    @Test func everyIDStaysThroughARenameAndACleanRebuild() throws {
        let site = try site()
        var output = try build(site)
        let alice = try ids("alice/feed.xml", in: output)
        let bob = try ids("bob/feed.xml", in: output)
        let all = try ids("feed.xml", in: output)
        #expect(alice.entries.count == 3 && all.entries.count == 4)
        for id in [alice.feed, bob.feed] + all.entries {
            #expect(id.hasPrefix("tag:example.com,20"), "\(id)")
        }
        // Unique within the site: two users' posts of one slug, and the feeds themselves.
        #expect(Set(all.entries + [alice.feed, bob.feed, all.feed]).count == all.entries.count + 3)

        #expect(runTomo(["user", "rename", "alice", "ann"], in: site.url).status == 0)
        output = try build(site)
        let ann = try ids("ann/feed.xml", in: output)
        #expect(ann.feed == alice.feed && ann.entries == alice.entries)
        #expect(try ids("feed.xml", in: output) == all)
        #expect(try ids("bob/feed.xml", in: output) == bob)
        // The old profile's address leads to the new one.
        let redirect = String(decoding: try Data(contentsOf: output.appendingPathComponent("alice/index.html")), as: UTF8.self)
        #expect(redirect.contains("<meta http-equiv=\"refresh\" content=\"0; url=/ann/\">"))
        #expect(redirect.contains("<link rel=\"canonical\" href=\"https://example.com/ann/\">"))

        try FileManager.default.removeItem(at: output)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(".tomo-cache"))
        output = try build(site, "--full")
        #expect(try ids("ann/feed.xml", in: output) == ann)
        #expect(try ids("feed.xml", in: output) == all)
    }

    /// A handle taken again by a new user, who posts a slug its old holder has too: the two
    /// posts still have two ids.
    @Test func aNewHolderOfAnOldHandleGetsIDsOfTheirOwn() throws {
        let site = try site()
        #expect(runTomo(["user", "rename", "alice", "ann"], in: site.url).status == 0)
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        try write("alice/sunset", day: 5, in: site)
        let output = try build(site)
        let all = try ids("feed.xml", in: output).entries
        #expect(all.count == 5 && Set(all).count == 5, "\(all)")
        #expect(try ids("alice/feed.xml", in: output).feed != ids("ann/feed.xml", in: output).feed)
    }

    /// The newest user removed and another registered the same day: the new user's feed and
    /// posts get ids no reader has seen, through later removals and a store written by hand
    /// in between (the kept order is read back, and a bad one is an error at its place).
    @Test func aRemovedUsersIDsGoToNoOneElse() throws {
        let site = try site()
        var output = try build(site)
        let bob = try ids("bob/feed.xml", in: output)
        #expect(runTomo(["user", "rm", "bob", "--yes"], in: site.url).status == 0)
        #expect(try site.read("content/store.json").contains("\"lastSequence\": 2,"))
        #expect(runTomo(["user", "add", "eve"], in: site.url).status == 0)
        try write("eve/sunset", day: 4, in: site)
        output = try build(site)
        let eve = try ids("eve/feed.xml", in: output)
        #expect(eve.feed != bob.feed && Set(eve.entries).isDisjoint(with: bob.entries), "\(eve) \(bob)")
        // eve holds the highest order now: the store needs no `lastSequence` to say so.
        #expect(try !site.read("content/store.json").contains("lastSequence"))

        #expect(runTomo(["user", "rm", "eve", "--yes"], in: site.url).status == 0)
        let store = try site.read("content/store.json")
        try site.write("content/store.json", store.replacingOccurrences(of: "\"lastSequence\": 3,", with: "\"lastSequence\": 2.5,"))
        let bad = runTomo(["check"], in: site.url)
        #expect(bad.status == 1 && bad.error.contains("content/store.json:") && bad.error.contains("\"lastSequence\""), "\(bad.error)")
        try site.write("content/store.json", store)
        #expect(runTomo(["user", "add", "fay"], in: site.url).status == 0)
        #expect(try site.read("content/store.json").contains("\"handle\":\"fay\",\"sequence\":4"))
    }

    /// The registration day and order name a registered user; a profile the store does not
    /// know is named by its handle and the post's day. The base URL's path keeps two sites on
    /// one host apart.
    @Test func theIDsSayWhoseAndWhichPostUnderTheSitesPath() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://Example.github.io:8443/mysite/\n")
        try site.write("content/store.json", """
            {"users": [{"approveFollows":false,"created":"2026-04-30T23:00:00.000Z","handle":"alice","sequence":7}], "version": 3}
            """)
        for handle in ["alice", "bob"] { try site.write("content/users/\(handle).yaml", "name: \(handle)\n") }
        try write("alice/sunset", day: 1, in: site)
        try write("bob/rain", day: 2, in: site)
        let output = try build(site)
        #expect(try ids("alice/feed.xml", in: output) == ("tag:example.github.io,2026-04-30:mysite/user-7", ["tag:example.github.io,2026-04-30:mysite/user-7/sunset"]))
        #expect(try ids("bob/feed.xml", in: output) == ("https://example.github.io:8443/mysite/bob/feed.xml", ["tag:example.github.io,2026-05-02:mysite/bob/rain"]))
    }

    /// A tag's authority is a DNS name (RFC 4151): an IPv6 host goes by its `ip6.arpa` name, a
    /// host written with the root's final dot without it. Both are valid IRIs, as Atom asks.
    @Test(arguments: [
        ("http://[::1]:8080/p/", "tag:1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa,2026-04-30:p/user-7"),
        ("https://example.com./x/", "tag:example.com,2026-04-30:x/user-7"),
    ])
    func anAddressHostIsNamedAsTheDNSNamesIt(baseURL: String, id: String) throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: \(baseURL)\n")
        try site.write("content/store.json", """
            {"users": [{"approveFollows":false,"created":"2026-04-30T23:00:00.000Z","handle":"alice","sequence":7}], "version": 3}
            """)
        try site.write("content/users/alice.yaml", "name: alice\n")
        try write("alice/sunset", day: 1, in: site)
        let output = try build(site)
        #expect(try ids("alice/feed.xml", in: output) == (id, [id + "/sunset"]))
    }
}
