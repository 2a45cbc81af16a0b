import Foundation

/// Post dates as pages and feeds show them: in the author's own time zone (the offset they
/// wrote), so a photo taken at 18:30 in Tokyo says 18:30 wherever the site is built.
enum PostDates {
    static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `May 1, 2026, 18:30` or `2026年5月1日 18:30`.
    static func display(_ date: Date, utcOffset: Int, language: String) -> String {
        let parts = components(date, utcOffset: utcOffset)
        let time = String(format: "%02d:%02d", parts.hour, parts.minute)
        if language == "ja" {
            return "\(parts.year)年\(parts.month)月\(parts.day)日 \(time)"
        }
        return "\(englishMonths[parts.month - 1]) \(parts.day), \(parts.year), \(time)"
    }

    /// RFC 3339 with the author's offset (`2026-05-01T18:30:00+09:00`), for `<time datetime>`
    /// and Atom.
    static func rfc3339(_ date: Date, utcOffset: Int) -> String {
        let parts = components(date, utcOffset: utcOffset)
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset)
        let zone = utcOffset == 0 ? "Z" : String(format: "%@%02d:%02d", sign, offset / 3600, offset % 3600 / 60)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second) + zone
    }

    private static func components(_ date: Date, utcOffset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
