import Synchronization
import TomoCore

/// The inputs one page read while it was made (see `PageViews`). Debug builds record every
/// page and check the reads against what its plan names.
final class ReadLog: Sendable {
    private let keys = Mutex<Set<InputKey>>([])

    func record(_ key: InputKey) {
        _ = keys.withLock { $0.insert(key) }
    }

    var recorded: Set<InputKey> { keys.withLock { $0 } }

    /// The recorded reads that `file` does not declare (none of its inputs covers them).
    func undeclared(by file: PlannedFile) -> [InputKey] {
        let declared = Array(Set(file.inputs))
        return recorded.filter { read in !declared.contains { $0.covers(read) } }.sorted { "\($0)" < "\($1)" }
    }

    /// Whether every page of a build is checked: in debug builds (the tests), always.
    static var checksReads: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }
}
