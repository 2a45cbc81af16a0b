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

extension Timestamp {
    /// How a store time is written, for messages.
    public static let example = "2026-11-30T12:34:56.789Z"

    /// Why `text` is no store time as tomo writes one (`2026-11-30T12:34:56.789Z`: four-digit
    /// year, UTC, milliseconds) naming a real day and time, or nil when it is one. A `created` of
    /// another form would be printed as it is (`tomo user list`), would sort out of time order,
    /// and could not date a user's feed ids, which would then change.
    public static func problem(_ text: String) -> String? {
        // Read in place: a build checks the time of each of 200,000 follows.
        var text = text
        return text.withUTF8(problem(inBytes:))
    }

    /// The form, a 9 for each digit.
    private static let form = Array("9999-99-99T99:99:99.999Z".utf8)

    private static func problem(inBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let isForm = bytes.count == form.count && zip(bytes, form).allSatisfy { byte, expected in
            expected == UInt8(ascii: "9") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
        }
        guard isForm else { return "is not a time as tomo writes one" }
        // At most four digits each: no overflow.
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        // Years from 0001, as every date of a site (`WrittenDate`): feed ids are made of the day.
        guard year >= 1, CivilDate.isValid(year: year, month: month, day: day),
              number(11..<13) <= 23, number(14..<16) <= 59, number(17..<19) <= 59 else { return "is no real day and time" }
        return nil
    }
}
