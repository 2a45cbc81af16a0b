import Foundation
import TomoContent
import TomoCore

/// Post dates as pages and feeds show them: in the author's own time zone (the offset they
/// wrote), so a photo taken at 18:30 in Tokyo says 18:30 wherever the site is built.
enum PostDates {
    /// `May 1, 2026 at 6:30 PM`, `2026年5月1日 18:30` or `1. Mai 2026 um 18:30`: as CLDR writes
    /// the date in `language` (`LanguageRules`); RFC 3339 when ICU cannot write it.
    static func display(_ date: Date, utcOffset: Int, language: LanguageTag) -> String {
        LanguageRules.of(language).dateText(date, utcOffset: utcOffset) ?? rfc3339(date, utcOffset: utcOffset)
    }

    /// A post's date as RFC 3339, as its author wrote it: in their offset and with the fraction
    /// of a second they wrote (`2026-05-01T18:30:00.250+09:00`), for `<time datetime>`, the
    /// JSON-LD `datePublished`, Atom's `<published>` and `<updated>` and the sitemap's
    /// `<lastmod>` alike (RFC 3339, Atom and W3C Datetime all allow the fraction).
    static func rfc3339(of post: Post) -> String {
        let written = WrittenDate.writtenSecond(of: post.dateText, instant: post.date)
        return rfc3339(written.second, utcOffset: post.utcOffset, fraction: written.fraction)
    }

    /// `rfc3339(of:)` as an HTML `<time datetime>` takes it: a fraction of a second of at most
    /// three digits (HTML's valid date strings), cut rather than rounded, so it stays in the
    /// second written.
    static func htmlDatetime(of post: Post) -> String {
        let written = WrittenDate.writtenSecond(of: post.dateText, instant: post.date)
        return rfc3339(written.second, utcOffset: post.utcOffset, fraction: written.fraction.prefix(3))
    }

    /// A post's date as its page shows it to a reader (`display`), on the second the author
    /// wrote (`WrittenDate.writtenSecond`): `23:59:59.9999999999` on 31 December is still that
    /// day and minute.
    static func display(of post: Post, labels: Labels) -> String {
        labels.date(WrittenDate.writtenSecond(of: post.dateText, instant: post.date).second, utcOffset: post.utcOffset)
    }

    /// RFC 3339 with the author's offset (`2026-05-01T18:30:00+09:00`), and `fraction` (the
    /// digits of a fraction of a second) when it is not empty.
    static func rfc3339(_ date: Date, utcOffset: Int, fraction: Substring = "") -> String {
        let parts = components(date, utcOffset: utcOffset)
        let offset = abs(utcOffset)
        let zone = utcOffset == 0 ? "Z" : (utcOffset < 0 ? "-" : "+") + twoDigits(offset / 3600) + ":" + twoDigits(offset % 3600 / 60)
        let year = String(parts.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + twoDigits(parts.month) + "-" + twoDigits(parts.day)
            + "T" + twoDigits(parts.hour) + ":" + twoDigits(parts.minute) + ":" + twoDigits(parts.second)
            + (fraction.isEmpty ? "" : "." + fraction) + zone
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    /// The civil date and time at `utcOffset` seconds east of UTC, on the proleptic Gregorian
    /// calendar dates are read with (`CivilDate`): pages show many dates, and a Calendar per
    /// date was most of a timeline page's cost.
    static func components(_ date: Date, utcOffset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        CivilDate.components(of: date, utcOffset: utcOffset)
    }
}
