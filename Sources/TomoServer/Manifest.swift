import CSystem
import Foundation
import Synchronization
import TomoCore

/// The text of a kept snapshot: a first line naming the format, one `<blob>\t<path>` line per
/// file, and a last line `end\t<count>\t<hash of every byte before it>`, so a manifest cut
/// short or changed is refused whole.
enum Manifest {
    private static let header = "tomo serve manifest 1\n"

    /// The manifest of `site`, listed in place (its files are not copied into a list).
    static func bytes(of site: PreparedSite) -> [UInt8] {
        var lines = Lines(expected: site.count)
        site.forEachEntry { lines.add($0, $1) }
        return lines.finished()
    }

    /// The manifest of `entries`, of which there are about `count`.
    static func bytes(of entries: some Sequence<(path: String, blob: BlobName)>, count expected: Int) -> [UInt8] {
        var lines = Lines(expected: expected)
        for entry in entries { lines.add(entry.path, entry.blob) }
        return lines.finished()
    }

    /// A manifest being written: the header, then a line per file added.
    private struct Lines {
        private var bytes = Array(Manifest.header.utf8)
        private var count = 0

        init(expected: Int) {
            bytes.reserveCapacity(expected * 64)
        }

        /// Rewritten after every reload, a line per served file (467,086 at 10,000 users): the
        /// bytes are appended as they are, and a path is looked at character by character only
        /// when it is not plain printable ASCII. A path that cannot be a line is left out.
        mutating func add(_ path: String, _ blob: BlobName) {
            guard Manifest.isKeepable(path) else { return }
            blob.append(to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(contentsOf: path.utf8)
            bytes.append(UInt8(ascii: "\n"))
            count += 1
        }

        /// The bytes with the trailer: the count and the hash of everything before it.
        consuming func finished() -> [UInt8] {
            var hasher = StableHasher()
            hasher.add(bytes: bytes)
            bytes += Array("end\t\(count)\t\(String(hasher.value, radix: 16))\n".utf8)
            return bytes
        }
    }

    /// Whether `path` can be a line of the manifest: no line break and no tab in it.
    private static func isKeepable(_ path: String) -> Bool {
        if path.utf8.allSatisfy({ (0x20..<0x7f).contains($0) }) { return true }
        return !path.contains(where: \.isNewline) && !path.utf8.contains(UInt8(ascii: "\t"))
    }

    /// Whether `bytes` end with the trailer `bytes(of:)` writes, counting `count` lines and
    /// hashing every byte before it; the offset where the trailer starts, and the count.
    static func checkedTrailer(of bytes: [UInt8]) -> (start: Int, count: Int)? {
        guard bytes.last == UInt8(ascii: "\n"),
              let trailerStart = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 }) else { return nil }
        let trailer = String(decoding: bytes[trailerStart...].dropLast(), as: UTF8.self).split(separator: "\t")
        var hasher = StableHasher()
        bytes[..<trailerStart].withUnsafeBytes { hasher.add(raw: $0) }
        guard trailer.count == 3, trailer[0] == "end", let count = Int(trailer[1]), count >= 0,
              trailer[2] == String(hasher.value, radix: 16), bytes.starts(with: header.utf8) else { return nil }
        return (trailerStart, count)
    }

    /// Where the first line after the header starts.
    static var firstLine: Int { header.utf8.count }
}

/// Writes the served snapshot's manifest off the publishing thread (a rebuild's reload does not
/// wait for it), a moment after a publish and only the snapshot served then. At 10,000 users a
/// manifest has 467,086 lines and takes a core for about 0.4 s, so it is written on a thread of
/// its own at the lowest priority: when edits come quickly it waits for the rebuilds instead of
/// taking a core from them. It holds the snapshot only while it lists it: a snapshot still
/// held when the next publish changes the served one in place makes that publish copy all of
/// it (30 ms at 10,000 users, and as long again to free the old one). So it waits for the
/// publishes to pause: during a quick run of edits it lists none of the snapshots between them.
/// The manifest only lets a restarted preview serve at once (each kept blob is checked before
/// it is served), so one a few seconds old costs nothing but freshness.
final class ManifestWriter: @unchecked Sendable {
    /// How long after the last publish the snapshot is written.
    static let delay = Duration.seconds(2)
    /// However often it publishes, the snapshot is written at most this long after the first
    /// publish not yet recorded.
    static let longestDelay = Duration.seconds(30)

    private let store: BlobStore
    private let condition = NSCondition()
    // Guarded by `condition`:
    /// Whose served snapshot is recorded (the one served when a write is due).
    private weak var router: RequestRouter?
    /// When the next write is due (nil: nothing was published since the last one).
    private var due: ContinuousClock.Instant?
    /// When the first publish the next write records came.
    private var firstUnrecorded: ContinuousClock.Instant?
    /// Whether the thread is writing a snapshot (which `flush` waits for).
    private var writing = false
    private var threadStarted = false
    /// Set by `flush`: nothing is written after it.
    private var stopped = false

    init(store: BlobStore) {
        self.store = store
    }

    /// `router` published a snapshot: the one it serves when the write is due is recorded.
    func published(by router: RequestRouter) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        self.router = router
        let now = ContinuousClock.now
        let first = firstUnrecorded ?? now
        firstUnrecorded = first
        due = min(now + Self.delay, first + Self.longestDelay)
        if !threadStarted {
            threadStarted = true
            Thread.detachNewThread { self.writeWhenDue() }
        }
        condition.broadcast()
    }

    /// The writing thread: the served snapshot at each due moment, until `flush`.
    private func writeWhenDue() {
        _ = tomo_lower_thread_priority()
        condition.lock()
        while !stopped {
            guard let due else {
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if now < due {
                _ = condition.wait(until: Date(timeIntervalSinceNow: (due - now).seconds))
                continue
            }
            self.due = nil
            firstUnrecorded = nil
            writing = true
            condition.unlock()
            write()
            condition.lock()
            writing = false
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Lists the served snapshot, lets it go, then writes the list.
    private func write() {
        condition.lock()
        let router = router
        condition.unlock()
        guard let bytes = router.map({ Manifest.bytes(of: $0.snapshot) }) else { return }
        store.writeManifest(bytes)
    }

    /// Writes what is pending now, after the write under way (at stop: the next preview finds
    /// the last snapshot), and stops the thread.
    func flush() {
        condition.lock()
        while writing { condition.wait() }
        let pending = due != nil
        due = nil
        firstUnrecorded = nil
        stopped = true
        condition.broadcast()
        condition.unlock()
        if pending { write() }
    }
}
