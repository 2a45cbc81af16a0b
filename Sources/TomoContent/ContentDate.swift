import Foundation

/// Dates of profile items: `2026-05-01` (a whole day in UTC) or a time, read by `WrittenDate`.
enum ContentDate {
    /// The instant `text` starts at, or nil when it is not a date.
    static func start(of text: String) -> Date? {
        WrittenDate.parse(text)?.instant
    }

    /// The first instant after `text`: the next midnight for a day (so `until: 2026-05-01`
    /// includes all of May 1st), the instant itself for a time.
    static func end(of text: String) -> Date? {
        guard let date = WrittenDate.parse(text) else { return nil }
        return date.hasTime ? date.instant : date.instant.addingTimeInterval(24 * 60 * 60)
    }
}
