import Dispatch
import Foundation
import Glibc
import Testing
import TomoServer

@Suite struct StopSignalTests {
    @Test func returnsTheSignalThatArrived() {
        // SIGUSR2, not SIGINT: the test runner's own Ctrl-C handling stays as it was. Ignored
        // up front so a late `raise` can never end the test process.
        signal(SIGUSR2, SIG_IGN)
        let received = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread.detachNewThread {
            result.value = StopSignal.wait(for: [SIGUSR2])
            received.signal()
        }
        var waited = 0
        while received.wait(timeout: .now() + .milliseconds(50)) == .timedOut && waited < 60 {
            kill(getpid(), SIGUSR2)  // again until the waiter's source is listening
            waited += 1
        }
        #expect(waited < 60)
        #expect(result.value == SIGUSR2)
    }

    final class ResultBox: @unchecked Sendable {
        var value: Int32 = 0
    }
}
