import Foundation
import Testing
@testable import TomoSite

/// The links a bio, a caption or a free page writes reach every page and feed that shows them
/// so that they lead where the author meant: a root-relative address (`/about/`) under the
/// base URL's path, and in a feed, which a reader reads apart from the site, every address
/// absolute, resolved against the post's own page.
@Suite struct MarkdownLinkTests {
    static let caption = "See [about](/about/) and [prev](../p/) and ![i](/static/preview.png \"t\") and [ext](https://x.example/a?b=1&c=2) and [q](/a?x=1&y=2#f) and [m](mailto:a@b.example)"

    static func site(baseURL: String) throws -> SiteFolder {
        let site = try SiteFolder([
            "content/site.yaml": "title: T\nbaseURL: \(baseURL)\n",
            "content/users/bob.yaml": "name: Bob\nbio: \"Read [about](/about/) or [home](/) or [net](//cdn.example/x)\"\n",
            "content/posts/bob/hello.md": "---\nphoto: p.jpg\ndate: 2026-01-01\nalt: x\n---\n\(caption)\n",
            "content/pages/about.md": "---\ntitle: About\n---\nBack [home](/).\n",
        ])
        try site.writePhoto(forPostsOf: "bob")
        _ = try site.build()
        return site
    }

    /// The `content` elements of a feed, as the HTML they carry.
    static func entryHTML(_ feed: String) -> [String] {
        feed.matches(of: /<content type="html">([^<]*)<\/content>/).map {
            String($0.1).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test func rootRelativeAddressesGoUnderTheBaseURLsPath() throws {
        let site = try Self.site(baseURL: "https://example.com/s/")
        let profile = try #require(site.page("bob/index.html"))
        #expect(profile.contains(#"<a href="/s/about/">about</a> or <a href="/s/">home</a> or <a href="https://cdn.example/x">net</a>"#), "\(profile)")
        let post = try #require(site.page("bob/posts/hello/index.html"))
        for link in [#"href="/s/about/""#, #"href="../p/""#, #"src="/s/static/preview.png""#, #"href="https://x.example/a?b=1&amp;c=2""#, #"href="/s/a?x=1&amp;y=2#f""#, #"href="mailto:a@b.example""#] {
            #expect(post.contains(link), "\(link)")
        }
        #expect(try #require(site.page("about/index.html")).contains(#"Back <a href="/s/">home</a>"#))
    }

    @Test func aSiteAtTheRootOfItsHostKeepsTheAddressesAsWritten() throws {
        let site = try Self.site(baseURL: "https://example.com/")
        #expect(try #require(site.page("bob/posts/hello/index.html")).contains(#"<a href="/about/">about</a> and <a href="../p/">prev</a>"#))
    }

    @Test func aFeedEntrysAddressesAreAbsolute() throws {
        let site = try Self.site(baseURL: "https://example.com/s/")
        for feed in ["feed.xml", "bob/feed.xml"] {
            let entries = Self.entryHTML(try #require(site.page(feed)))
            let caption = try #require(entries.first { $0.contains("See ") }, "\(feed)")
            #expect(caption.contains(#"<a href="https://example.com/s/about/">about</a> and <a href="https://example.com/s/bob/posts/p/">prev</a> and <img src="https://example.com/s/static/preview.png" alt="i" title="t" />"#), "\(feed): \(caption)")
            #expect(caption.contains(#"<a href="https://x.example/a?b=1&amp;c=2">ext</a> and <a href="https://example.com/s/a?x=1&amp;y=2#f">q</a> and <a href="mailto:a@b.example">m</a>"#), "\(feed): \(caption)")
        }
    }
}
