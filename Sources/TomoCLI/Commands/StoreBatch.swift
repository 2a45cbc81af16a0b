import Foundation
import Synchronization
import TomoCore
import TomoStore

/// The store a `tomo batch` changes: read once under the store's lock, changed by every line in
/// turn, written once. A store command whose invocation carries a batch applies its rule here
/// instead of to the file (`StoreCommandSupport`), so batch mode runs the commands' own code.
///
/// The batch holds the only copy of the store, so each rule changes it in place (a second copy
/// would make every change copy 700,000 records).
final class StoreBatch: Sendable {
    /// Content-file work of one line (a starter profile, moved or deleted user files), done only
    /// after the store was written; `apply` says whether it changed a file.
    struct FileChange: Sendable {
        var line: Int
        var apply: @Sendable () throws -> Bool
    }

    private struct State: Sendable {
        var store: Store
        /// Each post's visibility as its file says, read once per post.
        var visibilities: [String: PostVisibility?] = [:]
        var fileChanges: [FileChange] = []
        /// The line being run, and whether one of its rules changed the store.
        var line = 0
        var lineChanged = false
    }

    let site: URL
    private let state: Mutex<State>

    init(site: URL, store: consuming Store) {
        self.site = site
        state = Mutex(State(store: store))
    }

    /// Marks the start of line `number`: what follows is counted and attributed to it.
    func startLine(_ number: Int) {
        state.withLock { state in
            state.line = number
            state.lineChanged = false
        }
    }

    /// Whether a rule of the current line changed the store.
    var lineChanged: Bool { state.withLock { $0.lineChanged } }

    /// Applies `rule` to the batch's store.
    func apply(_ rule: (inout Store, URL) throws(Diagnostic) -> Outcome) throws(Diagnostic) -> Outcome {
        let site = site
        return try state.withLock { state throws(Diagnostic) -> Outcome in
            let outcome = try rule(&state.store, site)
            if outcome.changed { state.lineChanged = true }
            return outcome
        }
    }

    /// A copy of the store as the lines so far left it (for a command's checks before its rule).
    var store: Store { state.withLock { $0.store } }

    /// The post's visibility, reading its file the first time the batch asks.
    func visibility(of post: PostID) throws(Diagnostic) -> PostVisibility? {
        let id = post.description
        if let known = state.withLock({ $0.visibilities[id] }) { return known }
        let visibility = try StoreCommandSupport.visibility(of: post, in: site)
        state.withLock { $0.visibilities[id] = visibility }
        return visibility
    }

    /// Keeps `change` for after the store write.
    func afterStoreWrite(_ change: @escaping @Sendable () throws -> Bool) {
        state.withLock { state in state.fileChanges.append(FileChange(line: state.line, apply: change)) }
    }

    /// Hands the changed store over to be written, and the content-file changes to make after it.
    func finish() -> (store: Store, fileChanges: [FileChange]) {
        state.withLock { state in
            // Swapped out rather than copied, so the caller holds the only copy.
            var store = Store()
            swap(&store, &state.store)
            let fileChanges = state.fileChanges
            state.fileChanges = []
            return (store, fileChanges)
        }
    }
}
