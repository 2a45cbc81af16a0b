import CSystem
import Foundation

/// Deletes the blobs no snapshot names any more on a thread of its own, at the lowest priority,
/// so that neither a publish nor the request that released them waits for the unlinks. After a
/// restart on another port or base URL every page's bytes change: unlinking the 467,086 blobs
/// of the kept snapshot (10,000 users) held the first build's publish for about a minute on an
/// ext4 disk, and every blob written meanwhile waited for it.
final class RetiredBlobDeleter: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var pending: [BlobName] = []
    private var threadStarted = false
    /// Whether the thread is deleting a batch (which `stop` waits for).
    private var deleting = false
    /// Set by `stop`: nothing is deleted after it.
    private var stopped = false

    /// Deletes `names` soon with `delete` (which deletes a blob only if it is still retired
    /// then; the thread holds the first one given until `stop`).
    func add(_ names: [BlobName], delete: @escaping @Sendable (BlobName) -> Void) {
        guard !names.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        pending += names
        if !threadStarted {
            threadStarted = true
            Thread.detachNewThread { self.run(delete) }
        }
        condition.broadcast()
    }

    private func run(_ delete: (BlobName) -> Void) {
        _ = tomo_lower_thread_priority()
        condition.lock()
        while !stopped {
            guard !pending.isEmpty else {
                condition.wait()
                continue
            }
            let batch = pending
            pending = []
            deleting = true
            condition.unlock()
            for name in batch {
                // A stop drops the rest: the next preview's sweep deletes what no manifest names.
                if isStopped { break }
                delete(name)
            }
            condition.lock()
            deleting = false
            condition.broadcast()
        }
        condition.unlock()
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Stops deleting: returns once no blob is being deleted (the folder may then be handed to
    /// the next preview, whose blobs this thread must never touch).
    func stop() {
        condition.lock()
        stopped = true
        pending = []
        condition.broadcast()
        while deleting { condition.wait() }
        condition.unlock()
    }
}
