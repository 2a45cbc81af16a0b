import Dispatch
import Synchronization

/// What a build leaves for the end of the process instead of freeing it piece by piece: the
/// `tomo` command ends right after one build, and handing a 10,000-user site's model back to the
/// allocator one value at a time took over a second that the system does at once at exit.
/// Only the command line turns this on; a process that builds again and again (the tests,
/// `tomo serve`) frees as usual.
public enum ProcessMemory {
    private static let leftToExit = Atomic(false)
    private static let kept = Mutex<[any Sendable]>([])

    /// From now on, `keep` holds what it is given until the process ends.
    public static func leaveToExit() {
        leftToExit.store(true, ordering: .relaxed)
    }

    /// Lets go of `value` on another core: freeing a large table (the stamps of 100,000 files,
    /// the decoded cache of every post) one value at a time takes tenths of a second that the
    /// core building the site need not wait for. The caller hands over its last reference.
    static func releaseElsewhere(_ value: consuming some Sendable) {
        let held = Held(value)
        DispatchQueue.global(qos: .utility).async { held.drop() }
    }

    /// Holds what `releaseElsewhere` was given until another thread drops it.
    private final class Held<Value: Sendable>: Sendable {
        private let value: Mutex<Value?>
        init(_ value: consuming Value) { self.value = Mutex(value) }
        func drop() { value.withLock { $0 = nil } }
    }

    /// Holds `values` until the process ends when `leaveToExit` was called; otherwise nothing.
    static func keep(_ values: any Sendable...) {
        guard leftToExit.load(ordering: .relaxed) else { return }
        kept.withLock { $0 += values }
    }
}
