import CSystem
import Foundation

/// Deletes the blobs no snapshot names any more on a thread of its own, at the lowest priority,
/// so that neither a publish nor the request that released them waits for the unlinks; and at
/// start what an earlier preview left that the kept snapshot does not name, so the first build
/// does not wait for that either. After a restart on another port or base URL every page's
/// bytes change: unlinking the 467,086 blobs of the kept snapshot (10,000 users) held the first
/// build's publish for about a minute on an ext4 disk, and the next start as long again.
final class RetiredBlobDeleter: @unchecked Sendable {
    /// What is to be deleted: a blob (only if it is still retired then), or a file of the blob
    /// folders that is no blob (a gzip form or a temporary file an earlier preview left).
    enum Item: Sendable {
        case blob(BlobName)
        case stray(path: String)
    }

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var pending: [Item] = []
    private var threadStarted = false
    /// Whether the thread is deleting a batch (which `stop` waits for).
    private var deleting = false
    /// Set by `stop`: nothing is deleted after it.
    private var stopped = false

    /// Deletes `items` soon with `delete` (which deletes a blob only if it is still retired
    /// then; the thread holds the first one given until `stop`).
    func add(_ items: [Item], delete: @escaping @Sendable (Item) -> Void) {
        guard !items.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        pending += items
        if !threadStarted {
            threadStarted = true
            Thread.detachNewThread { self.run(delete) }
        }
        condition.broadcast()
    }

    private func run(_ delete: (Item) -> Void) {
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
            for item in batch {
                // A stop drops the rest: the next preview's sweep deletes what no manifest names.
                if isStopped { break }
                delete(item)
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
