import Dispatch
import Foundation
import Glibc
import Testing
import TomoServer

/// SIGUSR1 and SIGUSR2, not SIGINT: the test runner's own Ctrl-C handling stays as it was.
@Suite(.serialized) struct StopSignalTests {
    /// `StopSignal.wait(for:)` on another thread, with a time limit.
    func waitOnAnotherThread(for signal: Int32, after send: () -> Void) -> Int32? {
        let received = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread.detachNewThread {
            result.value = StopSignal.wait(for: [signal])
            received.signal()
        }
        send()
        return received.wait(timeout: .now() + 5) == .success ? result.value : nil
    }

    @Test func returnsTheSignalThatArrived() {
        #expect(StopSignal.catching([SIGUSR2]))
        let got = waitOnAnotherThread(for: SIGUSR2) {
            Thread.sleep(forTimeInterval: 0.05)
            kill(getpid(), SIGUSR2)
        }
        #expect(got == SIGUSR2)
    }

    /// One signal, sent the moment the signals are caught and before anyone waits, is kept:
    /// a Ctrl-C right after `tomo serve` started is never lost.
    @Test func aSignalSentBeforeTheWaitIsKept() {
        for _ in 0..<20 {
            #expect(StopSignal.catching([SIGUSR1]))
            kill(getpid(), SIGUSR1)
            #expect(waitOnAnotherThread(for: SIGUSR1) {} == SIGUSR1)
        }
    }

    final class ResultBox: @unchecked Sendable {
        var value: Int32 = 0
    }
}
