import Dispatch
import Glibc

/// Waiting for Ctrl-C (SIGINT) or SIGTERM, so `tomo serve` can stop the server and the watcher
/// cleanly instead of dying mid-response.
public enum StopSignal {
    /// Blocks until one of `signals` arrives and returns it. The signals' default action (ending
    /// the process) is switched off first, and stays off: from then on they only wake waiters.
    public static func wait(for signals: [Int32] = [SIGINT, SIGTERM]) -> Int32 {
        let arrived = SignalBox()
        let semaphore = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "tomo stop signal")
        let sources = signals.map { number in
            signal(number, SIG_IGN)  // a dispatch source only sees signals the process ignores
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                arrived.number = number
                semaphore.signal()
            }
            source.resume()
            return source
        }
        semaphore.wait()
        for source in sources { source.cancel() }
        return queue.sync { arrived.number }
    }
}

/// The signal that arrived; written and read on the sources' serial queue only.
private final class SignalBox: @unchecked Sendable {
    var number: Int32 = 0
}
