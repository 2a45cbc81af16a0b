import Foundation
import TomoCore

/// A date as a person writes it in a content file: `2026-05-01`, `2026-05-01 18:30`,
/// `2026-05-01T18:30:00+09:00` (seconds, fractions and the offset optional, `T` or a space
/// between day and time). Keeps the offset it was written with, so a page can show the author's
/// local time; a date written without an offset is taken as UTC.
public struct WrittenDate: Sendable, Hashable {
    /// The instant the text names.
    public var instant: Date
    /// Seconds east of UTC as written (`+09:00` is 32400); 0 when no offset was written.
    public var utcOffset: Int
    /// False for a bare day (`2026-05-01`), which starts at midnight UTC.
    public var hasTime: Bool
    /// Whether the text carried `Z` or an offset.
    public var hasZone: Bool

    /// The largest offset is 23:59 either side of UTC, as RFC 3339 has it.
    public static let maximumOffsetHours = 23

    /// What the accepted forms look like, for messages.
    public static let acceptedForms = "2026-05-01T18:30:00+09:00 (ISO 8601 with the UTC offset, -23:59 to +23:59), 2026-05-01 18:30 or 2026-05-01"

    /// The date `text` names, or nil when it is none of the accepted forms or names no real day or time.
    public static func parse(_ text: String) -> WrittenDate? {
        guard let parts = exactParts(of: text) else { return nil }
        let instant = Date(timeIntervalSince1970: TimeInterval(parts.seconds) + TimeInterval(parts.nanosecond) / 1e9)
        return WrittenDate(instant: instant, utcOffset: parts.offset, hasTime: parts.hasTime, hasZone: parts.hasZone)
    }

    /// The instant `text` (a date this type reads) names, to the nanosecond, as whole seconds
    /// since 1970 and the nanoseconds after them; nil when it is no date. `instant` is a Double,
    /// which tells moments near 2026 apart only to about 0.2 µs (near the year 1, a few µs).
    public static func exactInstant(of text: String) -> (seconds: Int, nanosecond: Int)? {
        exactParts(of: text).map { ($0.seconds, $0.nanosecond) }
    }

    /// What `text` names, in whole seconds since 1970 (UTC) and nanoseconds, with how it was
    /// written; nil when it is none of the accepted forms or names no real day or time.
    private static func exactParts(of text: String) -> (seconds: Int, nanosecond: Int, offset: Int, hasTime: Bool, hasZone: Bool)? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2) else { return nil }
        var (hour, minute, second, nanosecond) = (0, 0, 0, 0)
        var offset = 0
        var hasTime = false
        var hasZone = false
        if scanner.skip("T") || scanner.skip(" ") {
            guard let h = scanner.number(digits: 2), scanner.skip(":"), let m = scanner.number(digits: 2) else { return nil }
            (hour, minute, hasTime) = (h, m, true)
            if scanner.skip(":") {
                guard let s = scanner.number(digits: 2) else { return nil }
                second = s
                if scanner.skip(".") {
                    guard let fraction = scanner.fraction() else { return nil }
                    nanosecond = fraction
                }
            }
            if scanner.skip("Z") || scanner.skip("z") {
                hasZone = true
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2) else { return nil }
                _ = scanner.skip(":")
                let minutes = scanner.atEnd ? 0 : scanner.number(digits: 2)
                // RFC 3339's whole range, -23:59 to +23:59: a date is kept as an instant and
                // its offset in seconds, and shown by arithmetic on them, so no offset is too
                // far for a page or a feed (Foundation's TimeZone is never asked).
                guard let minutes, hours <= maximumOffsetHours, minutes <= 59 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
                hasZone = true
            }
        }
        // On the proleptic Gregorian calendar, as pages show dates: 2026-02-30 and 1500-02-29
        // do not exist and are refused, 1582-10-10 does. Years start at 0001: a page would show
        // the year 0000 as the year 1.
        guard scanner.atEnd, year >= 1, hour <= 23, minute <= 59, second <= 59, CivilDate.isValid(year: year, month: month, day: day) else { return nil }
        let seconds = CivilDate.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffset: offset)
        return (seconds, nanosecond, offset, hasTime, hasZone)
    }

    /// The whole second `text` (a date this type read as `instant`) names, and the digits of
    /// its fraction as written (`250` for `2026-05-01T18:30:00.250+09:00`; empty when it has
    /// none): what a page or a feed shows. `instant` is a Double, which holds a moment near 2026
    /// only to about 0.2 µs (near 9999, 2 µs), so `.999999999` rounds it up to the next second,
    /// and then the next minute, day or year; the fraction is taken off again and the rest
    /// rounded to the second it was. A date's only `.` is the one before its fraction.
    public static func writtenSecond(of text: String, instant: Date) -> (second: Date, fraction: Substring) {
        guard let dot = text.firstIndex(of: ".") else { return (instant, "") }
        let fraction = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard !fraction.isEmpty, let value = Double("0." + fraction) else { return (instant, "") }
        return (Date(timeIntervalSince1970: (instant.timeIntervalSince1970 - value).rounded()), fraction)
    }

    /// `instant` written in the offset `utcOffset` as `2026-05-01T18:30:00+09:00`: how `tomo post add`
    /// stamps a new post with the author's local time.
    public static func text(for instant: Date, utcOffset: Int) -> String {
        let parts = CivilDate.components(of: instant, utcOffset: utcOffset)
        func two(_ value: Int) -> String { let text = String(value); return text.count < 2 ? "0" + text : text }
        let sign = utcOffset < 0 ? "-" : "+"
        let zone = sign + two(abs(utcOffset) / 3600) + ":" + two(abs(utcOffset) % 3600 / 60)
        let year = String(parts.year)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))\(zone)"
    }
}

/// Reads fixed-width numbers and separators from the bytes of a date.
private struct DigitScanner {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
        offset += 1
        return true
    }

    /// Exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard offset + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + digits] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        offset += digits
        return value
    }

    /// One or more digits after a decimal point, as nanoseconds (digits beyond nine are dropped).
    mutating func fraction() -> Int? {
        let start = offset
        var nanoseconds = 0
        while offset < bytes.count, isDigit(bytes[offset]) {
            if offset - start < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[offset] - UInt8(ascii: "0")) }
            offset += 1
        }
        let count = offset - start
        guard count > 0 else { return nil }
        for _ in 0..<max(0, 9 - count) { nanoseconds *= 10 }
        return nanoseconds
    }

    /// +1 or -1 for a leading `+` or `-`, nil otherwise.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
