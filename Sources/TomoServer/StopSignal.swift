import CSystem
import Glibc

/// Waiting for Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal window closed), so `tomo serve`
/// can stop the server and the watcher cleanly instead of dying mid-response (and leaving a
/// second preview's copy of the site in the temporary folder).
///
/// `catching` switches the signals' default action (ending the process) off for good and
/// catches them from that moment: a signal that arrives before anyone waits is kept, and the
/// next `wait` returns it. (A dispatch signal source, used before, starts listening only some
/// time after it is made: a Ctrl-C in between was ignored, and `tomo serve` went on running.)
public enum StopSignal {
    /// The signals that stop a preview cleanly.
    public static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Catches `signals` from now on. False when the system refused (then they keep their
    /// default action).
    @discardableResult
    public static func catching(_ signals: [Int32] = stopping) -> Bool {
        signals.withUnsafeBufferPointer { tomo_stop_signals_catch($0.baseAddress, Int32($0.count)) } == 0
    }

    /// Blocks until one of the caught signals has arrived and returns it; catches `signals`
    /// first when nothing was caught yet.
    public static func wait(for signals: [Int32] = stopping) -> Int32 {
        let number = tomo_stop_signals_wait()
        if number >= 0 { return number }
        catching(signals)
        return tomo_stop_signals_wait()
    }
}
