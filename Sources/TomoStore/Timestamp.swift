import Foundation
import TomoCore

/// Store times: ISO 8601 in UTC with milliseconds, so text order is time order.
public enum Timestamp {
    public static func now() -> String {
        format(Date())
    }

    /// `2026-11-30T12:34:56.789Z`, to the nearest millisecond. Formatted by hand from `gmtime_r`:
    /// a `tomo batch` import stamps 200,000 follows, and an ISO8601DateFormatter per call made
    /// that most of its time.
    public static func format(_ date: Date) -> String {
        let milliseconds = Int64(saturatingFloor: (date.timeIntervalSince1970 * 1000).rounded())
        var (wholeSeconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 { (wholeSeconds, fraction) = (wholeSeconds - 1, fraction + 1000) }
        var seconds = time_t(wholeSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
            + "." + digits(Int(fraction), 3) + "Z"
    }
}
