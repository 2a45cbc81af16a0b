import Foundation
import Testing
import TomoTestSupport
import TomoContent
import TomoCore
@testable import TomoSite

/// Every date is read and shown on the proleptic Gregorian calendar: a date before the
/// calendar reform (1582-10-15) shows as written, not ten or more days later as a Julian
/// reading would make it.
@Suite struct ProlepticDateTests {
    /// (written, as a page shows it, as feeds and `<time datetime>` write it), newest first.
    static let dates: [(written: String, shown: String, iso: String)] = [
        ("1582-10-15", "October 15, 1582 at 12:00\u{202F}AM", "1582-10-15T00:00:00Z"),
        ("1582-10-10T12:00:00Z", "October 10, 1582 at 12:00\u{202F}PM", "1582-10-10T12:00:00Z"),
        ("1582-10-04T23:30:00-05:00", "October 4, 1582 at 11:30\u{202F}PM", "1582-10-04T23:30:00-05:00"),
        ("1582-10-04", "October 4, 1582 at 12:00\u{202F}AM", "1582-10-04T00:00:00Z"),
        ("1000-01-01", "January 1, 1000 at 12:00\u{202F}AM", "1000-01-01T00:00:00Z"),
        ("0001-01-01T00:00:00+09:00", "January 1, 1 at 12:00\u{202F}AM", "0001-01-01T00:00:00+09:00"),
    ]

    @Test func oldDatesShowAsWrittenInPagesAndFeedsAndSortByTheirInstant() throws {
        var files = ["content/users/alice.yaml": "name: Alice\n"]
        for (index, date) in Self.dates.enumerated() {
            files["content/posts/alice/p\(index).md"] = "---\nphoto: p.jpg\ndate: \(date.written)\nalt: A photo\n---\nPost \(index)\n"
        }
        let site = try SiteFolder(files)
        try site.writePhoto(forPostsOf: "alice")
        try site.build()
        for (index, date) in Self.dates.enumerated() {
            let page = try #require(site.page("alice/posts/p\(index)/index.html"))
            #expect(page.contains("<time datetime=\"\(date.iso)\">\(date.shown)</time>"), "\(date.written)")
        }
        let feed = try AtomSummary(Data(try #require(site.page("feed.xml")).utf8))
        #expect(feed.entries.map { $0["published"] ?? "" } == Self.dates.map(\.iso))
        // The profile grid and the feed list newest first, by instant.
        let profile = try #require(site.page("alice/index.html"))
        let shown = Self.dates.compactMap { profile.range(of: "<time datetime=\"\($0.iso)\"")?.lowerBound }
        #expect(shown.count == Self.dates.count && shown == shown.sorted())
    }

    /// A page in a language whose calendar is not plain Gregorian (Thai's Buddhist one, on which
    /// ICU's C API cannot move the reform) shows old dates as written too: the Buddhist year of
    /// 1582-10-04 is 2125, and its day is the 4th, not the Julian 24th of September.
    @Test func oldDatesShowAsWrittenOnABuddhistCalendarToo() throws {
        let dates = [("1582-10-04T12:00:00Z", "4 ตุลาคม 2125"), ("1000-01-01", "1 มกราคม 1543"), ("0001-01-01", "1 มกราคม 544"), ("2026-05-01", "1 พฤษภาคม 2569")]
        var files = ["content/users/alice.yaml": "name: Alice\nlanguage: th\n"]
        for (index, date) in dates.enumerated() {
            files["content/posts/alice/p\(index).md"] = "---\nphoto: p.jpg\ndate: \(date.0)\nalt: A photo\n---\nPost \(index)\n"
        }
        let site = try SiteFolder(files)
        try site.writePhoto(forPostsOf: "alice")
        try site.build()
        for (index, date) in dates.enumerated() {
            let page = try #require(site.page("alice/posts/p\(index)/index.html"))
            #expect(page.contains(">\(date.1)"), "\(date.0): \(page.components(separatedBy: "<time").dropFirst().first?.prefix(80) ?? "")")
        }
    }

    @Test(arguments: dates.map(\.written))
    func aWrittenDateRoundTrips(text: String) throws {
        let date = try #require(WrittenDate.parse(text))
        let written = WrittenDate.text(for: date.instant, utcOffset: date.utcOffset)
        #expect(WrittenDate.parse(written)?.instant == date.instant)
        #expect(written.hasPrefix(String(text.prefix(10))))
    }

    @Test func theDaysThatExistAreTheProlepticGregorianOnes() {
        // Days the Julian calendar has and the Gregorian does not, and the other way round.
        for text in ["1500-02-29", "1700-02-29", "1582-10-32", "0001-02-29"] { #expect(WrittenDate.parse(text) == nil, "\(text)") }
        for text in ["1600-02-29", "1582-10-05", "1582-10-14", "0004-02-29", "2000-02-29"] { #expect(WrittenDate.parse(text) != nil, "\(text)") }
        // The reform day follows the day before it, without a gap of ten days.
        let before = WrittenDate.parse("1582-10-14")?.instant
        let reform = WrittenDate.parse("1582-10-15")?.instant
        #expect(before.flatMap { b in reform.map { $0.timeIntervalSince(b) } } == 86_400)
        // Against Unix time: 0001-01-01 is 719,162 days before 1970 on this calendar.
        #expect(WrittenDate.parse("0001-01-01")?.instant.timeIntervalSince1970 == TimeInterval(-719_162 * 86_400))
    }

    /// An item's `until` day, read as the first instant after it, at old dates too.
    @Test func anItemUntilAnOldDayEndsAtTheNextMidnight() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nitems:\n  - text: Old\n    from: 1582-10-04\n    until: 1582-10-04\n"])
        let content = try #require(ContentLoader.load(site: site.root).content)
        let item = try #require(content.profiles.first?.items.first)
        #expect(item.until.map { t in item.from.map { t.timeIntervalSince($0) } } == 86_400)
        #expect(item.from.map { CivilDate.components(of: $0, utcOffset: 0).day } == 4)
    }
}
