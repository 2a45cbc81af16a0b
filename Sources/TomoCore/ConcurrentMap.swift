import Dispatch

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
