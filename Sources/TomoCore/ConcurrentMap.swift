import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` on every core: `transform` runs concurrently, results keep the order of the array.
    public func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let slots = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots.store(transform(self[index]), at: index)
        }
        return slots.take()
    }

    /// `transform` on runs of neighbouring elements (`perCore` runs for each core), on every
    /// core; the results in the order of the runs. Fewer, longer jobs than `concurrentMap` for
    /// work that is small per element, and neighbours stay on one core (the files of one folder).
    public func concurrentRuns<T: Sendable>(perCore: Int, _ transform: @Sendable (ArraySlice<Element>) -> T) -> [T] {
        let runs = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * perCore)
        return (0..<runs).map { self[count * $0 / runs..<count * ($0 + 1) / runs] }.concurrentMap(transform)
    }
}

/// One slot per index, each written by exactly one iteration of `concurrentPerform`, so no two
/// threads ever touch the same memory; read only after every iteration has finished.
private final class Slots<T>: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: nil, count: count)
    }

    func store(_ value: T, at index: Int) {
        pointer[index] = value
    }

    func take() -> [T] {
        (0..<count).compactMap { pointer[$0] }
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
