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

    /// Holds `values` until the process ends when `leaveToExit` was called; otherwise nothing.
    static func keep(_ values: any Sendable...) {
        guard leftToExit.load(ordering: .relaxed) else { return }
        kept.withLock { $0 += values }
    }
}
