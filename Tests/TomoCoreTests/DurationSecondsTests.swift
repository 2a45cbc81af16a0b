import Testing
import TomoCore

/// Timings print seconds with their fractions, and a timeout in seconds waits as long as asked.
@Suite struct DurationSecondsTests {
    @Test func aDurationIsItsSecondsAndTheirFraction() {
        let cases: [(Duration, Double)] = [
            (.zero, 0), (.seconds(2), 2), (.milliseconds(1500), 1.5), (.microseconds(250), 0.00025),
            (.nanoseconds(1), 1e-9), (.milliseconds(-1500), -1.5), (.seconds(86_400 * 365), 31_536_000),
        ]
        for (duration, seconds) in cases {
            #expect(abs(duration.seconds - seconds) <= 1e-12 * max(1, abs(seconds)), "\(duration)")
        }
    }
}
