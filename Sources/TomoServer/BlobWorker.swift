import CSystem
import Foundation

/// The blob store's work off the threads that publish, on a thread of its own at the lowest
/// priority: writing the blobs a rebuild put to be written later (`BlobStore.putLater`), and
/// deleting the blobs no snapshot names any more, so that neither a publish nor the request
/// that released them waits for the disk; and at start deleting what an earlier preview left
/// that the kept snapshot does not name, so the first build does not wait for that either.
/// After a restart on another port or base URL every page's bytes change: unlinking the
/// 467,086 blobs of the kept snapshot (10,000 users) held the first build's publish for about a
/// minute on an ext4 disk, and the next start as long again.
///
/// Writes go before deletions: a rebuild's pages are held in memory until they are written,
/// and one thread doing both never deletes a blob while it is being written.
final class BlobWorker: @unchecked Sendable {
    /// What is to be done: a blob written (if it is still to be), a blob deleted (only if it is
    /// still retired then), or a file of the blob folders that is no blob deleted (a gzip form
    /// or a temporary file an earlier preview left).
    enum Item: Sendable {
        case write(BlobName)
        case blob(BlobName)
        case stray(path: String)

        var isWrite: Bool {
            if case .write = self { return true }
            return false
        }
    }

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var writes: [Item] = []
    private var deletions: [Item] = []
    private var threadStarted = false
    /// Whether the thread is doing an item (which `stop` waits for).
    private var working = false
    /// Set by `stop`: nothing is done after it.
    private var stopped = false
    /// How many holds (`holdingDeletions`) keep deletions waiting.
    private var deletionHolds = 0

    /// Does `items` soon with `perform` (the thread holds the first one given until `stop`).
    func add(_ items: [Item], perform: @escaping @Sendable (Item) -> Void) {
        guard !items.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        for item in items {
            if item.isWrite { writes.append(item) } else { deletions.append(item) }
        }
        if !threadStarted {
            threadStarted = true
            Thread.detachNewThread { self.run(perform) }
        }
        condition.broadcast()
    }

    private func run(_ perform: (Item) -> Void) {
        _ = tomo_lower_thread_priority()
        condition.lock()
        while !stopped {
            let batch: [Item]
            if !writes.isEmpty {
                batch = writes
                writes = []
            } else if !deletions.isEmpty, deletionHolds == 0 {
                batch = deletions
                deletions = []
            } else {
                condition.wait()
                continue
            }
            working = true
            condition.unlock()
            var done = 0
            for item in batch {
                guard mayDo(item) else { break }
                perform(item)
                done += 1
            }
            condition.lock()
            if done < batch.count, !stopped { deletions.insert(contentsOf: batch[done...], at: 0) }
            working = false
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Whether the next item of a batch is done now. A stop drops the rest (the next preview's
    /// sweep deletes what no manifest names, and `BlobStore.close` writes what is still to be
    /// written); new writes, and a hold, come before the rest of a batch of deletions.
    private func mayDo(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return !stopped && (item.isWrite || (writes.isEmpty && deletionHolds == 0))
    }

    /// Runs `body` with no deletion started meanwhile (writes go on): a rebuild then has both
    /// cores and the disk, and never waits for a blob being deleted at the lowest priority.
    func holdingDeletions<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        deletionHolds += 1
        condition.unlock()
        defer {
            condition.lock()
            deletionHolds -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Stops the thread: returns once no item is being done (the folder may then be handed to
    /// the next preview, whose blobs this thread must never touch).
    func stop() {
        condition.lock()
        stopped = true
        writes = []
        deletions = []
        condition.broadcast()
        while working { condition.wait() }
        condition.unlock()
    }
}
