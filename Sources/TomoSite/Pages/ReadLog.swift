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
}

/// The checks debug builds (the tests) make on every build: each page's reads against its plan
/// (`ReadLog`), and `tomo serve`'s updated fingerprints against a full build's.
enum DebugChecks {
    static var enabled: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }
}
