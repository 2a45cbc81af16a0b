import Foundation
import Testing
import TomoCore
@testable import TomoSite

/// A post's date reaches every page and file that gives it (the post page's `<time datetime>`
/// and JSON-LD, the feeds' `<published>` and `<updated>`, the sitemap's `<lastmod>`) as its
/// author wrote it; `<time datetime>` with at most three digits of a second, all HTML allows.
@Suite struct PostDateOutputTests {
    /// A site with alice's one post dated `date`.
    static func site(dated date: String) throws -> SiteFolder {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "content/posts/alice/p.md": "---\nphoto: p.jpg\ndate: \(date)\nalt: A photo\n---\nHi.\n",
        ])
        try site.writePhoto(forPostsOf: "alice")
        return site
    }

    /// Every place the date is given, as the output has it.
    static func expectEverywhere(_ written: String, in site: SiteFolder, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let page = try #require(site.page("alice/posts/p/index.html"))
        let datetime = written.replacing(/\.(\d{3})\d+/) { ".\($0.1)" }
        #expect(page.contains("<time datetime=\"\(datetime)\">"), "\(written): the post page", sourceLocation: sourceLocation)
        for other in ["alice/index.html", "index.html"] {
            #expect(try #require(site.page(other)).contains("datetime=\"\(datetime)\""), "\(written): \(other)", sourceLocation: sourceLocation)
        }
        #expect(page.contains("\"datePublished\":\"\(written)\""), "\(written): JSON-LD", sourceLocation: sourceLocation)
        for feed in ["feed.xml", "alice/feed.xml"] {
            let text = try #require(site.page(feed))
            #expect(text.contains("<published>\(written)</published>"), "\(written): \(feed)", sourceLocation: sourceLocation)
            #expect(text.contains("<updated>\(written)</updated>"), "\(written): \(feed)", sourceLocation: sourceLocation)
        }
        #expect(site.page("sitemap.xml")?.contains("<lastmod>\(written)</lastmod>") == true, "\(written): the sitemap", sourceLocation: sourceLocation)
    }

    /// RFC 3339 allows offsets up to 23:59 either way: each is read and given back as written.
    @Test(arguments: ["2026-05-01T18:30:00+18:01", "2026-05-01T18:30:00+19:00", "2026-05-01T18:30:00+23:59", "2026-05-01T18:30:00-23:59"])
    func everyOffsetUpToADayIsKept(date: String) throws {
        let site = try Self.site(dated: date)
        try site.build(date: try #require(ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")))
        try Self.expectEverywhere(date, in: site)
    }

    /// Past 23:59 is no offset: the error names the range.
    @Test(arguments: ["+24:00", "-24:00", "+23:60"])
    func anOffsetPastADayIsAnErrorThatNamesTheRange(offset: String) throws {
        let site = try Self.site(dated: "2026-05-01T18:30:00\(offset)")
        let errors = try #require(site.buildErrors())
        #expect(errors.count == 1 && errors[0].hasPrefix("content/posts/alice/p.md:3:7: \"2026-05-01T18:30:00\(offset)\" is not a date: "), "\(errors)")
        #expect(errors.first?.contains("(ISO 8601 with the UTC offset, -23:59 to +23:59)") == true, "\(errors)")
    }

    /// A fraction of a second is kept as written, in every place alike.
    @Test(arguments: [
        ("2026-05-01T18:30:00.250+09:00", "2026-05-01T18:30:00.250+09:00"),
        ("2026-05-01T18:30:00.5Z", "2026-05-01T18:30:00.5Z"),
        ("2026-05-01 18:30:00.123456789", "2026-05-01T18:30:00.123456789Z"),
        ("2026-05-01T18:30:00+09:00", "2026-05-01T18:30:00+09:00"),
        // More digits than a Double near 2026 holds: still the second written, not the next.
        ("2026-05-01T18:30:59.999999999+09:00", "2026-05-01T18:30:59.999999999+09:00"),
        ("1969-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.999999999Z"),
    ])
    func aFractionOfASecondIsKept(date: String, written: String) throws {
        let site = try Self.site(dated: date)
        try site.build(date: try #require(ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")))
        try Self.expectEverywhere(written, in: site)
    }

    /// The date a reader sees is the minute written, however many nines follow the second:
    /// `9999-12-31T23:59:59.9999999999` showed "January 1, 10000 at 12:00 AM", one Double's
    /// rounding past the end of the year.
    @Test(arguments: [
        ("9999-12-31T23:59:59.9999999999999999999-00:01", "December 31, 9999 at 11:59 PM"),
        ("2026-12-31T23:59:59.999999999+09:00", "December 31, 2026 at 11:59 PM"),
        ("2026-05-01T18:30:00.5Z", "May 1, 2026 at 6:30 PM"),
    ])
    func thePageShowsTheMinuteWritten(date: String, shown: String) throws {
        let site = try Self.site(dated: date)
        _ = try SiteBuilder.build(BuildOptions(site: site.root, future: true))
        // ICU puts a narrow no-break space before AM and PM.
        let page = try #require(site.page("alice/posts/p/index.html")).replacingOccurrences(of: "\u{202F}", with: " ")
        #expect(page.contains(">\(shown)</time>"), "\(date): \(page.components(separatedBy: "<time").dropFirst().first?.prefix(120) ?? "no <time>")")
    }
}
