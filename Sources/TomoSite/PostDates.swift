import Foundation

/// Post dates as pages and feeds show them: in the author's own time zone (the offset they
/// wrote), so a photo taken at 18:30 in Tokyo says 18:30 wherever the site is built.
enum PostDates {
    static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `May 1, 2026, 18:30` or `2026年5月1日 18:30`.
    static func display(_ date: Date, utcOffset: Int, language: String) -> String {
        let parts = components(date, utcOffset: utcOffset)
        let time = twoDigits(parts.hour) + ":" + twoDigits(parts.minute)
        if language == "ja" {
            return "\(parts.year)年\(parts.month)月\(parts.day)日 \(time)"
        }
        return "\(englishMonths[parts.month - 1]) \(parts.day), \(parts.year), \(time)"
    }

    /// RFC 3339 with the author's offset (`2026-05-01T18:30:00+09:00`), for `<time datetime>`
    /// and Atom.
    static func rfc3339(_ date: Date, utcOffset: Int) -> String {
        let parts = components(date, utcOffset: utcOffset)
        let offset = abs(utcOffset)
        let zone = utcOffset == 0 ? "Z" : (utcOffset < 0 ? "-" : "+") + twoDigits(offset / 3600) + ":" + twoDigits(offset % 3600 / 60)
        let year = String(parts.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + twoDigits(parts.month) + "-" + twoDigits(parts.day)
            + "T" + twoDigits(parts.hour) + ":" + twoDigits(parts.minute) + ":" + twoDigits(parts.second) + zone
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    /// The civil date and time at `utcOffset` seconds east of UTC, by arithmetic on the
    /// proleptic Gregorian calendar (Howard Hinnant's days-to-civil): pages show many dates,
    /// and a Calendar per date was most of a timeline page's cost.
    static func components(_ date: Date, utcOffset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let local = Int(saturatingFloor: date.timeIntervalSince1970) &+ utcOffset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }
}
