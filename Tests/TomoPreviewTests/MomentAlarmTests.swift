import Foundation
import Synchronization
import Testing
@testable import TomoPreview

/// The alarm `tomo serve` rebuilds at when an item's moment passes.
@Suite struct MomentAlarmTests {
    final class Rings: Sendable {
        let times = Mutex<[Date]>([])
        var count: Int { times.withLock { $0.count } }

        /// Waits up to `seconds` for `count` rings.
        func wait(for count: Int, seconds: Double = 3) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while self.count < count, Date() < deadline { usleep(5_000) }
            return self.count >= count
        }
    }

    @Test func ringsOnceWhenTheMomentPasses() {
        let rings = Rings()
        let alarm = MomentAlarm { _ in rings.times.withLock { $0.append(Date()) } }
        defer { alarm.stop() }
        let moment = Date().addingTimeInterval(0.3)
        alarm.set(moment)
        #expect(rings.wait(for: 1))
        #expect(rings.times.withLock { $0 }.allSatisfy { $0 >= moment })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rings.count == 1)
    }

    /// A moment it already rang for (a rebuild that failed then leaves it as the next moment)
    /// is not rung again; a later one is.
    @Test func aMomentRungForIsNotRungAgain() {
        let rings = Rings()
        let alarm = MomentAlarm { _ in rings.times.withLock { $0.append(Date()) } }
        defer { alarm.stop() }
        let past = Date().addingTimeInterval(-5)
        alarm.set(past)
        #expect(rings.wait(for: 1))
        alarm.set(past)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rings.count == 1)
        alarm.set(Date().addingTimeInterval(0.1))
        #expect(rings.wait(for: 2))
    }

    /// Moments beyond any timer (9999, and `distantFuture`) wait quietly; setting another
    /// moment wakes the alarm for it, and nil makes it wait for ever.
    @Test func aFarMomentWaitsWithoutRinging() {
        let rings = Rings()
        let alarm = MomentAlarm { _ in rings.times.withLock { $0.append(Date()) } }
        defer { alarm.stop() }
        for far in [Date(timeIntervalSince1970: 253_402_300_799), .distantFuture] {
            alarm.set(far)
            Thread.sleep(forTimeInterval: 0.2)
        }
        alarm.set(nil)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(rings.count == 0)
        alarm.set(Date().addingTimeInterval(0.1))
        #expect(rings.wait(for: 1))
    }

    @Test func stopsTwiceAndNeverRingsAfter() {
        let rings = Rings()
        let alarm = MomentAlarm { _ in rings.times.withLock { $0.append(Date()) } }
        alarm.stop()
        alarm.set(Date())
        alarm.stop()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(rings.count == 0)
    }
}
