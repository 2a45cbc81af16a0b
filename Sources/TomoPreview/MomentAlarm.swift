import Foundation

/// Rings (calls `ring` with the moment, on a thread of its own) once the moment it is set to has passed:
/// `tomo serve` sets it to the next moment an item appears or disappears, and rebuilds when it
/// rings.
///
/// A moment not later than the last one it rang for is not rung again: a rebuild that failed at
/// that moment waits for the next save, which rebuilds at its own time, instead of being tried
/// again in a loop. It sleeps at most an hour at a time, so a moment as far away as an item
/// `until: 9999-12-31` costs one wake-up an hour, and the wait handed to the system is always
/// one it can hold.
final class MomentAlarm: Sendable {
    static let longestSleep: TimeInterval = 60 * 60

    private let state = Alarm()
    private let finished = DispatchSemaphore(value: 0)

    init(ring: @escaping @Sendable (Date) -> Void) {
        let state = self.state
        let finished = self.finished
        let thread = Thread {
            state.run(ring)
            finished.signal()
        }
        thread.name = "tomo item alarm"
        thread.start()
    }

    /// Rings once `moment` has passed (nil: never).
    func set(_ moment: Date?) {
        state.change { $0.moment = moment }
    }

    /// Stops the alarm and waits for its thread (and a ring under way) to end. Safe to call twice.
    func stop() {
        var wasStopped = false
        state.change { alarm in
            wasStopped = alarm.stopped
            alarm.stopped = true
        }
        if !wasStopped { finished.wait() }
    }
}

/// The alarm's moment and what it rang for, behind a condition its thread waits on.
private final class Alarm: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    var moment: Date?
    var rangFor: Date?
    var stopped = false

    func change(_ body: (Alarm) -> Void) {
        condition.lock()
        body(self)
        condition.signal()
        condition.unlock()
    }

    func run(_ ring: @Sendable (Date) -> Void) {
        condition.lock()
        while !stopped {
            guard let moment, rangFor.map({ moment > $0 }) ?? true else {
                condition.wait()
                continue
            }
            let now = Date()
            guard now >= moment else {
                _ = condition.wait(until: min(moment, now.addingTimeInterval(MomentAlarm.longestSleep)))
                continue
            }
            rangFor = moment
            condition.unlock()
            ring(moment)
            condition.lock()
        }
        condition.unlock()
    }
}
