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
}
