import Foundation
import Testing
import TomoStore

@Suite struct TimestampTests {
    /// The hand-made format is the ISO 8601 one the store always had.
    @Test(arguments: [0, 1_764_505_470.2456, 1_795_000_000.999, 951_782_400.5, 4_102_444_799.001])
    func matchesISO8601WithMilliseconds(seconds: Double) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamp.format(date) == formatter.string(from: date))
    }

    @Test func sortsInTimeOrder() {
        let times = [0.0, 0.001, 9.999, 10, 1_000_000_000].map { Timestamp.format(Date(timeIntervalSince1970: $0)) }
        #expect(times == times.sorted())
    }

    /// What tomo writes is a store time; nothing else is.
    @Test(arguments: [0, 1_764_505_470.2456, 951_782_400.5, 4_102_444_799.001, 253_402_300_799.999])
    func everyTimeTomoWritesIsAStoreTime(seconds: Double) {
        #expect(Timestamp.problem(Timestamp.format(Date(timeIntervalSince1970: seconds))) == nil)
    }

    @Test(arguments: [
        ("yesterday", "is not a time as tomo writes one"),
        ("", "is not a time as tomo writes one"),
        ("2026-12-07T10:11:12Z", "is not a time as tomo writes one"),
        ("2026-12-07T10:11:12.123+09:00", "is not a time as tomo writes one"),
        ("2026-12-07 10:11:12.123Z", "is not a time as tomo writes one"),
        ("2026-12-07T10:11:12.123z", "is not a time as tomo writes one"),
        ("99999-01-01T00:00:00.000Z", "is not a time as tomo writes one"),
        ("２026-12-07T10:11:12.123Z", "is not a time as tomo writes one"),
        ("2026-02-30T10:00:00.000Z", "is no real day and time"),
        ("2026-02-29T10:00:00.000Z", "is no real day and time"),
        ("2026-13-01T10:00:00.000Z", "is no real day and time"),
        ("0000-01-01T00:00:00.000Z", "is no real day and time"),
        ("2026-12-07T24:00:00.000Z", "is no real day and time"),
        ("2026-12-07T23:60:00.000Z", "is no real day and time"),
        ("2026-12-07T23:59:60.000Z", "is no real day and time"),
    ])
    func otherTextIsNoStoreTime(text: String, problem: String) {
        #expect(Timestamp.problem(text) == problem)
    }

    @Test func aLeapDayIsOne() {
        #expect(Timestamp.problem("2028-02-29T12:00:00.000Z") == nil)
        #expect(Timestamp.problem("2000-02-29T12:00:00.000Z") == nil)
        #expect(Timestamp.problem("1900-02-29T12:00:00.000Z") == "is no real day and time")
    }
}
