import Dispatch
import Synchronization

/// A value made on another core while the caller goes on with something else, for the steps of
/// a build that do not need each other (the last build's state is read while the site loads).
public final class Background<Value: Sendable>: Sendable {
    private let made = DispatchSemaphore(value: 0)
    private let result = Mutex<Value?>(nil)

    /// Starts `make` at once on another thread.
    public init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [self] in
            let value = make()
            result.withLock { $0 = value }
            made.signal()
        }
    }

    /// The value, once `make` has returned (waits for it until then).
    public var value: Value {
        made.wait()
        // Let the next reader through at once.
        made.signal()
        guard let value = result.withLock({ $0 }) else { preconditionFailure("the semaphore is signalled only once the value is stored") }
        return value
    }
}

/// `first` and `second` at the same time (on two cores when there are two), and both results.
public func concurrently<First: Sendable, Second>(_ first: @escaping @Sendable () -> First, _ second: () -> Second) -> (First, Second) {
    let background = Background(first)
    let other = second()
    return (background.value, other)
}
