import CSystem
import Glibc

/// Waiting for Ctrl-C (SIGINT) or SIGTERM, so `tomo serve` can stop the server and the watcher
/// cleanly instead of dying mid-response.
///
/// `catching` switches the signals' default action (ending the process) off for good and
/// catches them from that moment: a signal that arrives before anyone waits is kept, and the
/// next `wait` returns it. (A dispatch signal source, used before, starts listening only some
/// time after it is made: a Ctrl-C in between was ignored, and `tomo serve` went on running.)
public enum StopSignal {
    /// Catches `signals` from now on. False when the system refused (then they keep their
    /// default action).
    @discardableResult
    public static func catching(_ signals: [Int32] = [SIGINT, SIGTERM]) -> Bool {
        signals.withUnsafeBufferPointer { tomo_stop_signals_catch($0.baseAddress, Int32($0.count)) } == 0
    }

    /// Blocks until one of the caught signals has arrived and returns it; catches `signals`
    /// first when nothing was caught yet.
    public static func wait(for signals: [Int32] = [SIGINT, SIGTERM]) -> Int32 {
        let number = tomo_stop_signals_wait()
        if number >= 0 { return number }
        catching(signals)
        return tomo_stop_signals_wait()
    }
}
