import Dispatch
import Foundation
import Synchronization
import Testing
import TomoCore

/// Steps of a build that do not need each other run at the same time, and each gives its own
/// result, read as often as asked.
@Suite struct BackgroundTests {
    /// Each side waits until the other has started: run one after the other, this would never end
    /// (the semaphores time out instead, and the test fails).
    @Test func bothSidesRunAtTheSameTime() {
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let (first, second) = concurrently({ () -> Bool in
            firstStarted.signal()
            return secondStarted.wait(timeout: .now() + 10) == .success
        }, { () -> Bool in
            secondStarted.signal()
            return firstStarted.wait(timeout: .now() + 10) == .success
        })
        #expect(first)
        #expect(second)
    }

    @Test func aValueIsReadAsOftenAsAsked() {
        let runs = Atomic(0)
        let background = Background { () -> [Int] in
            runs.add(1, ordering: .relaxed)
            return Array(0..<1000)
        }
        #expect(background.value.count == 1000)
        #expect(background.value.last == 999)
        #expect(runs.load(ordering: .relaxed) == 1)
    }
}
