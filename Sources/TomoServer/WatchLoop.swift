import Foundation
import Glibc

/// The inotify side of `FileWatcher`: the watch descriptors of every folder, the changed paths
/// not yet reported, and the loop that reads events and flushes them after the debounce.
///
/// Confined to one thread: `FileWatcher.init` sets it up, then only the watcher thread uses it.
final class WatchLoop: @unchecked Sendable {
    private let inotify: Int32
    private let stopReadEnd: Int32
    private let debounce: Duration
    private let onChange: @Sendable ([URL]) -> Void
    /// Each watched folder by its watch descriptor.
    private var folders: [Int32: String] = [:]
    private var pending: Set<String> = []
    private var firstPendingAt = ContinuousClock.now
    private var lastEventAt = ContinuousClock.now
    /// A batch is reported at the latest this long after its first change, even when changes
    /// keep coming (a long copy into the folder).
    private let longestDelay = Duration.seconds(1)

    private static let watchedEvents = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY
        | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    init(inotify: Int32, stopReadEnd: Int32, debounce: Duration, onChange: @escaping @Sendable ([URL]) -> Void) {
        self.inotify = inotify
        self.stopReadEnd = stopReadEnd
        self.debounce = debounce
        self.onChange = onChange
    }

    /// Watches `path` and every folder below it. With `reportingContents`, everything found
    /// is a change too: a folder that just appeared may already hold files.
    func watchTree(_ path: String, reportingContents: Bool) {
        let descriptor = inotify_add_watch(inotify, path, Self.watchedEvents)
        guard descriptor >= 0 else { return }  // removed meanwhile, or not a folder
        folders[descriptor] = path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names {
            let child = path + "/" + name
            if reportingContents { pending.insert(child) }
            var status = stat()
            if lstat(child, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                watchTree(child, reportingContents: reportingContents)
            }
        }
    }

    /// Reads events until the stop pipe becomes readable.
    func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stopReadEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, pollTimeoutMilliseconds())
            if ready < 0 && errno != EINTR { return }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                if count > 0 { handleEvents(buffer[..<count]) }
            }
            flushIfQuiet()
        }
    }

    func closeDescriptors() {
        close(inotify)
        close(stopReadEnd)
    }

    /// -1 (wait for ever) with nothing pending, else the time until the batch is due.
    private func pollTimeoutMilliseconds() -> Int32 {
        guard !pending.isEmpty else { return -1 }
        let due = min(lastEventAt + debounce, firstPendingAt + longestDelay)
        let remaining = due - ContinuousClock.now
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds + 1))
    }

    private func flushIfQuiet() {
        guard !pending.isEmpty else { return }
        let now = ContinuousClock.now
        guard now >= lastEventAt + debounce || now >= firstPendingAt + longestDelay else { return }
        let batch = pending.sorted().map { URL(fileURLWithPath: $0) }
        pending.removeAll()
        onChange(batch)
    }

    /// Parses `struct inotify_event` records: wd, mask, cookie, len, then `len` bytes of
    /// NUL-padded name (which Swift does not import as a member).
    private func handleEvents(_ bytes: ArraySlice<UInt8>) {
        let headerSize = MemoryLayout<inotify_event>.size
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + headerSize <= raw.count {
                let descriptor = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + headerSize)..<min(raw.count, offset + headerSize + nameLength)]
                let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                handle(descriptor: descriptor, mask: mask, name: name)
                offset += headerSize + nameLength
            }
        }
    }

    private func handle(descriptor: Int32, mask: UInt32, name: String) {
        let now = ContinuousClock.now
        if pending.isEmpty { firstPendingAt = now }
        lastEventAt = now
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: report every watched folder so the caller rebuilds everything.
            pending.formUnion(folders.values)
            return
        }
        guard let folder = folders[descriptor] else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            folders[descriptor] = nil
            return
        }
        guard !name.isEmpty else {
            // The watched folder itself was deleted or moved away.
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { pending.insert(folder) }
            return
        }
        let path = folder + "/" + name
        pending.insert(path)
        guard mask & UInt32(IN_ISDIR) != 0 else { return }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            watchTree(path, reportingContents: true)
        } else if mask & UInt32(IN_MOVED_FROM) != 0 {
            unwatchTree(path)
        }
    }

    /// Drops the watches of a folder moved away: their paths no longer name them.
    private func unwatchTree(_ path: String) {
        for (descriptor, folder) in folders where folder == path || folder.hasPrefix(path + "/") {
            inotify_rm_watch(inotify, descriptor)
            folders[descriptor] = nil
        }
    }
}
