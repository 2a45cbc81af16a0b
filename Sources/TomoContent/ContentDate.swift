import Foundation

/// Dates in content files: `2026-05-01` (a whole day in UTC) or an ISO 8601 time with its
/// offset (`2026-05-01T18:30:00+09:00`).
enum ContentDate {
    /// The instant `text` starts at, or nil when it is not one of the two forms.
    static func start(of text: String) -> Date? {
        if let day = day(text) { return day }
        return timestamp(text)
    }

    /// The first instant after `text`: the next midnight for a day (so `until: 2026-05-01`
    /// includes all of May 1st), the instant itself for a time.
    static func end(of text: String) -> Date? {
        if let day = day(text) { return day.addingTimeInterval(24 * 60 * 60) }
        return timestamp(text)
    }

    private static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let components = DateComponents(year: year, month: month, day: day)
        // Calendar rolls 2026-02-30 over into March; a date that does not exist is refused instead.
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    private static func timestamp(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
