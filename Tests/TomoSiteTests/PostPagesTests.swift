import Foundation
import Testing
import TomoTestSupport
import TomoCore
import TomoStore
@testable import TomoSite

/// A small social graph with posts that covers every timeline rule:
/// - ann follows bob (accepted), cat (accepted), dan (pending: dan approves follows), eve (accepted, but eve blocked ann);
/// - ann blocked fay after following her; bob hid nothing, but one of bob's posts is hidden by `tomo post hide`;
/// - posts in several time zones, two at the same instant.
@Suite struct PostPagesTests {
    static let photo = Array((try? Data(contentsOf: SiteBuildTests.demoIcon)) ?? Data())

    func graphSite(pageSize: Int = 20) throws -> SiteFolder {
        var files = ["content/site.yaml": SiteFolder.siteYAML + "pageSize: \(pageSize)\n"]
        for handle in ["ann", "bob", "cat", "dan", "eve", "fay"] {
            files["content/users/\(handle).yaml"] = "name: \(handle.capitalized)\nemail: \(handle)@private.example\n"
        }
        func post(_ id: String, _ date: String, visibility: String = "public") {
            files["content/posts/\(id).md"] = "---\nphoto: p.jpg\ndate: \(date)\nalt: photo \(id)\nvisibility: \(visibility)\n---\nCaption of \(id)\n"
        }
        post("ann/own", "2026-05-01T12:00:00+00:00")
        post("bob/tokyo-morning", "2026-05-01T10:00:00+09:00")   // 01:00 UTC: older than ann/own
        post("bob/hidden", "2026-05-02T00:00:00+00:00")
        post("bob/friends-only", "2026-05-03T00:00:00+00:00", visibility: "followers")
        post("cat/same-a", "2026-05-04T12:00:00+02:00")          // 10:00 UTC
        post("cat/same-b", "2026-05-04T10:00:00+00:00")          // 10:00 UTC: tie, ordered by id
        post("dan/pending", "2026-05-05T00:00:00+00:00")
        post("eve/blocked", "2026-05-06T00:00:00+00:00")
        post("fay/blocked", "2026-05-07T00:00:00+00:00")
        post("cat/private", "2026-05-08T00:00:00+00:00", visibility: "private")
        let site = try SiteFolder(files)
        for handle in ["ann", "bob", "cat", "dan", "eve", "fay"] {
            try site.write("content/posts/\(handle)/p.jpg", bytes: Self.photo)
        }
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            for handle in ["ann", "bob", "cat", "dan", "eve", "fay"] { _ = try store.addUser(handle) }
            _ = try store.updateUser("dan") { $0.approveFollows = true }
            for followed in ["bob", "cat", "dan", "eve", "fay"] { _ = try store.follow("ann", followed) }
            _ = try store.block("eve", "ann")
            _ = try store.block("ann", "fay")
            _ = try store.hidePost(PostID(handle: "bob", slug: "hidden"), visibility: .public)
            _ = try store.like("bob", PostID(handle: "ann", slug: "own"), visibility: .public)
            _ = try store.like("cat", PostID(handle: "ann", slug: "own"), visibility: .public)
            return try store.like("cat", PostID(handle: "bob", slug: "tokyo-morning"), visibility: .public)
        }
        return site
    }

    func postIDs(in html: String) -> [String] {
        html.components(separatedBy: "data-post-id=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test func aTimelineFollowsEveryRule() throws {
        let site = try graphSite()
        try site.build()
        let timeline = try #require(site.page("ann/timeline/index.html"))
        // Own and accepted follows only; no pending follow, no block either way, no hidden or
        // non-public post; newest first by instant across time zones, ties by id.
        #expect(postIDs(in: timeline) == ["cat/same-a", "cat/same-b", "ann/own", "bob/tokyo-morning"])
    }

    /// How each post card of `html` loads its photo, by post id, in page order.
    func photoLoading(in html: String) -> [String] {
        html.components(separatedBy: "data-post-id=\"").dropFirst().map { card in
            let id = card.split(separator: "\"").first.map(String.init) ?? ""
            let loading = card.components(separatedBy: "loading=\"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? "none"
            return "\(id) \(loading)"
        }
    }

    /// Only the first card of a page loads its photo at once, whatever the other pages that
    /// show the same post (one card is kept per post and shared by them) made of it first.
    @Test func onlyThePageFirstCardLoadsItsPhotoAtOnce() throws {
        let site = try graphSite(pageSize: 2)
        try site.build()
        let first = try #require(site.page("ann/timeline/index.html"))
        let second = try #require(site.page("ann/timeline/page/2/index.html"))
        let home = try #require(site.page("index.html"))
        let profile = try #require(site.page("ann/index.html"))
        #expect(photoLoading(in: first) == ["cat/same-a eager", "cat/same-b lazy"])
        #expect(photoLoading(in: second) == ["ann/own eager", "bob/tokyo-morning lazy"])
        // The home page's recent posts follow its users' list: none of them comes first.
        #expect(photoLoading(in: home) == ["fay/blocked lazy", "eve/blocked lazy"])
        #expect(photoLoading(in: profile) == ["ann/own eager"])
        // The same in a rebuild that makes only some of these pages again.
        try site.write("content/users/cat.yaml", "name: Cat Renamed\nemail: cat@private.example\n")
        try site.build()
        #expect(photoLoading(in: try #require(site.page("ann/timeline/index.html"))) == ["cat/same-a eager", "cat/same-b lazy"])
        #expect(photoLoading(in: try #require(site.page("ann/timeline/page/2/index.html"))) == ["ann/own eager", "bob/tokyo-morning lazy"])
    }

    @Test func timelinesArePagedByPageSizeWithNoEmptyPage() throws {
        let site = try graphSite(pageSize: 3)
        try site.build()
        let first = try #require(site.page("ann/timeline/index.html"))
        let second = try #require(site.page("ann/timeline/page/2/index.html"))
        #expect(postIDs(in: first) == ["cat/same-a", "cat/same-b", "ann/own"])
        #expect(postIDs(in: second) == ["bob/tokyo-morning"])
        #expect(first.contains(#"<a rel="next" href="/ann/timeline/page/2/">"#))
        #expect(second.contains(#"<a rel="prev" href="/ann/timeline/">"#))
        #expect(site.page("ann/timeline/page/3/index.html") == nil)
        #expect(site.page("ann/timeline/page/1/index.html") == nil)
    }

    @Test func postPagesAndCardsCarryTheLikeCount() throws {
        let site = try graphSite()
        try site.build()
        let post = try #require(site.page("ann/posts/own/index.html"))
        #expect(post.contains(#"<article class="post" data-post-id="ann/own" data-like-count="2">"#))
        #expect(post.contains("2 likes"))
        #expect(post.contains(#"<li class="user-card" data-handle="bob">"#) && post.contains(#"data-handle="cat""#))
        #expect(post.contains(#"<time datetime="2026-05-01T12:00:00Z">"#))
        let tokyo = try #require(site.page("bob/posts/tokyo-morning/index.html"))
        #expect(tokyo.contains("1 like<"))
        #expect(tokyo.contains(#"datetime="2026-05-01T10:00:00+09:00">May 1, 2026 at 10:00\#u{202F}AM</time>"#))
        let profile = try #require(site.page("ann/index.html"))
        #expect(profile.contains(#"data-post-id="ann/own" data-like-count="2""#))
        #expect(profile.contains("1 post<"))
        #expect(post.contains(#"<meta property="og:image" content="https://example.com/media/ann/own-card-"#))
    }

    /// A like by a registration whose profile is gone (deleted by hand, a rename stopped half
    /// way) still counts, as the design says a post's like count is the number of its likes;
    /// only users with a page are named among its likers.
    @Test func aLikeByAUserWithoutAProfileCountsButIsNotNamed() throws {
        let site = try graphSite()
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/users/bob.yaml"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/bob"))
        try site.build()
        let post = try #require(site.page("ann/posts/own/index.html"))
        #expect(post.contains(#"data-post-id="ann/own" data-like-count="2""#))
        #expect(post.contains("2 likes"))
        #expect(!post.contains(#"data-handle="bob""#) && post.contains(#"<li class="user-card" data-handle="cat">"#))
    }

    /// A card on a follower's timeline links the post and its owner, names the owner, and shows
    /// the date, like count, caption and photo of that post (a card is kept per post and shared
    /// by every page that shows it).
    @Test func aTimelineCardShowsItsOwnPostAndOwner() throws {
        let site = try graphSite()
        try site.build()
        let timeline = try #require(site.page("ann/timeline/index.html"))
        let start = try #require(timeline.range(of: #"data-post-id="bob/tokyo-morning""#))
        let card = try #require(timeline[start.lowerBound...].components(separatedBy: "</article>").first)
        #expect(card.contains(#"data-like-count="1""#))
        #expect(card.contains(#"<a class="post-link" href="/bob/posts/tokyo-morning/">"#))
        #expect(card.contains(#"<a class="post-owner" href="/bob/" dir="auto" lang="en">Bob</a>"#))
        #expect(card.contains(#"<time datetime="2026-05-01T10:00:00+09:00">May 1, 2026 at 10:00\#u{202F}AM</time>"#))
        #expect(card.contains(#"<span class="likes">1 like</span>"#))
        #expect(card.contains(#"<p class="post-caption" dir="auto" lang="en">Caption of bob/tokyo-morning</p>"#))
        #expect(card.contains(#"alt="photo bob/tokyo-morning""#) && card.contains("/media/bob/"))
    }

    /// A card's link to a post is named by its photo's alt text, or, when the post has none,
    /// by the post's title as its page's heading gives it (the caption's first line, or
    /// "Photo by NAME"): axe's link-name, on the profile, the home page and timelines.
    @Test func aCardsLinkIsNamedWhenItsPhotoHasNoAltText() throws {
        let site = try SiteFolder([
            "content/users/ann.yaml": "name: Ann Lee\n",
            "content/posts/ann/no-alt.md": "---\nphoto: p.jpg\ndate: 2026-05-01T12:00:00+00:00\n---\nBy the sea\n\nMore.\n",
            "content/posts/ann/bare.md": "---\nphoto: p.jpg\ndate: 2026-05-02T12:00:00+00:00\n---\n",
            "content/posts/ann/described.md": "---\nphoto: p.jpg\ndate: 2026-05-03T12:00:00+00:00\nalt: Waves on rocks\n---\nDescribed\n",
        ])
        try site.write("content/posts/ann/p.jpg", bytes: Self.photo)
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in try store.addUser("ann") }
        try site.build()
        // The caption's line is in the owner's language; "Photo by NAME" in the page's.
        let names = ["ann/no-alt": (#" lang="en""#, "By the sea"), "ann/bare": ("", "Photo by Ann Lee")]
        for path in ["ann/index.html", "index.html", "ann/timeline/index.html"] {
            let page = try #require(site.page(path))
            let links = page.components(separatedBy: #"<a class="post-link""#).dropFirst().map { $0.components(separatedBy: "</a>")[0] }
            #expect(links.count == 3, "\(path)")
            for link in links {
                let id = try #require(postIDs(in: page).first { link.contains("/\($0.replacingOccurrences(of: "/", with: "/posts/"))/") })
                if let (lang, name) = names[id] {
                    #expect(link.contains(#"alt="""#) && link.contains(#"<span class="visually-hidden" dir="auto"\#(lang)>\#(name)</span>"#), "\(path): \(link)")
                    #expect(site.page("\(id.replacingOccurrences(of: "/", with: "/posts/"))/index.html")?.contains(#"<h1 class="visually-hidden" dir="auto">\#(name)</h1>"#) == true)
                } else {
                    #expect(link.contains(#"alt="Waves on rocks""#) && !link.contains("visually-hidden"), "\(path): \(link)")
                }
            }
        }
    }

    @Test func nothingPrivateReachesTheOutput() throws {
        let site = try graphSite()
        try site.build()
        let files = site.outputFiles()
        for (path, text) in files {
            for secret in ["bob/hidden", "bob/friends-only", "cat/private", "private.example", "Caption of bob/hidden", "Caption of cat/private"] {
                #expect(!text.contains(secret), "\(path) leaks \(secret)")
            }
        }
        #expect(files["bob/posts/hidden/index.html"] == nil)
        #expect(files["bob/posts/friends-only/index.html"] == nil)
        #expect(files["cat/posts/private/index.html"] == nil)
    }

    @Test func feedsAreValidAtomWithAbsoluteURLs() throws {
        let site = try graphSite()
        try site.build()
        for path in ["feed.xml", "ann/feed.xml", "dan/feed.xml"] {
            let feed = try #require(site.page(path))
            let parsed = try AtomSummary(Data(feed.utf8))
            #expect(parsed.rootName == "feed", "\(path)")
            #expect(parsed.feedElements.isSuperset(of: ["id", "title", "updated", "author", "link"]), "\(path)")
            for entry in parsed.entries {
                #expect(entry.keys.contains("id") && entry.keys.contains("title") && entry.keys.contains("updated") && entry.keys.contains("content"), "\(path)")
                #expect(entry["id"]?.hasPrefix("tag:example.com,") == true, "permanent ids (FeedIDs)")
            }
        }
        let all = try AtomSummary(Data(try #require(site.page("feed.xml")).utf8))
        #expect(all.entries.count == 7)
        #expect(all.entries.first?["content"]?.contains(#"<img src="https://example.com/media/"#) == true)
        #expect(try AtomSummary(Data(try #require(site.page("ann/feed.xml")).utf8)).entries.count == 1)
    }

    @Test func theHomePageShowsRecentPublicPosts() throws {
        let site = try graphSite()
        try site.build()
        let home = try #require(site.page("index.html"))
        #expect(postIDs(in: home).first == "fay/blocked")
        #expect(!postIDs(in: home).contains("bob/hidden"))
    }
}

@Suite struct PostDatesTests {
    @Test(arguments: [0, 3600 * 9, -3600 * 5 - 1800, 3600 * 14, -3600 * 12])
    func agreeWithTheCalendarAcrossYearsAndZones(offset: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: offset))
        var seconds: TimeInterval = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {             // 2100-01-01
            let date = Date(timeIntervalSince1970: seconds)
            let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let parts = PostDates.components(date, utcOffset: offset)
            #expect([parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second]
                == [expected.year, expected.month, expected.day, expected.hour, expected.minute, expected.second].map { $0 ?? -1 })
            seconds += 86_400 * 37 + 3_677
        }
    }

    @Test func formatsForPagesAndFeeds() {
        let date = Date(timeIntervalSince1970: 1_777_627_800)  // 2026-05-01T09:30:00Z
        #expect(PostDates.rfc3339(date, utcOffset: 9 * 3600) == "2026-05-01T18:30:00+09:00")
        #expect(PostDates.rfc3339(date, utcOffset: 0) == "2026-05-01T09:30:00Z")
        #expect(PostDates.rfc3339(date, utcOffset: -(4 * 3600 + 1800)) == "2026-05-01T05:00:00-04:30")
    }
}
