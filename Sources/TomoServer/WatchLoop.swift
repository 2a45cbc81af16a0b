import Foundation
import Glibc
import TomoCore

/// The inotify side of `FileWatcher`: the watch descriptors of every folder, the changed paths
/// not yet reported, and the loop that reads events and flushes them after the debounce.
///
/// Confined to one thread: `FileWatcher.init` sets it up, then only the watcher thread uses it.
final class WatchLoop: @unchecked Sendable {
    private let inotify: Int32
    private let stopReadEnd: Int32
    private let debounce: Duration
    private let onChange: @Sendable ([URL]) -> Void
    private let onUnwatched: @Sendable (URL, String) -> Void
    /// The folders asked for, watched with all they hold whenever they exist.
    private var roots: Set<String> = []
    /// Each watched folder by its watch descriptor, and the descriptor of each.
    private var folders: [Int32: String] = [:]
    private var descriptors: [String: Int32] = [:]
    /// Asked-for folders that do not exist (yet), by the watch of the folder they will appear in.
    private var awaited: [Int32: [String: String]] = [:]
    /// Folders that could not be watched and were reported, each once until it is watched.
    private var unwatched: Set<String> = []
    private var pending: Set<String> = []
    private var firstPendingAt = ContinuousClock.now
    private var lastEventAt = ContinuousClock.now
    /// A batch is reported at the latest this long after its first change, even when changes
    /// keep coming (a long copy into the folder).
    private let longestDelay = Duration.seconds(1)

    private static let watchedEvents = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY
        | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// What the folder an asked-for folder will appear in is watched for, added to its other watch.
    private static let appearingEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD)

    init(inotify: Int32, stopReadEnd: Int32, debounce: Duration,
         onUnwatched: @escaping @Sendable (URL, String) -> Void, onChange: @escaping @Sendable ([URL]) -> Void) {
        self.inotify = inotify
        self.stopReadEnd = stopReadEnd
        self.debounce = debounce
        self.onUnwatched = onUnwatched
        self.onChange = onChange
    }

    /// Watches the folder at `path` and everything below it, now or, when it does not exist,
    /// from the moment it appears in its parent. False when neither can be done.
    func watchRoot(_ path: String) -> Bool {
        roots.insert(path)
        var status = stat()
        if stat(path, &status) == 0, status.isFolder {
            watchTree(path, reportingContents: false)
            return true
        }
        return awaitRoot(path)
    }

    /// Watches `top` and every folder below it, links to folders followed as the build follows
    /// them, each folder once. With `reportingContents`, everything found is a change too: a
    /// folder that just appeared may already hold files. A folder that cannot be watched or
    /// listed is reported, never skipped in silence: its changes would go unseen.
    private func watchTree(_ top: String, reportingContents: Bool) {
        // An explicit stack: a deep tree of folders must not deepen the call stack.
        var toWatch = [top]
        while let path = toWatch.popLast() {
            guard descriptors[path] == nil else { continue }
            let descriptor = inotify_add_watch(inotify, path, Self.watchedEvents)
            guard descriptor >= 0 else {
                let code = errno
                // Removed meanwhile, or not a folder: nothing to watch.
                if code != ENOENT && code != ENOTDIR { cannotWatch(path, Self.reason(code)) }
                continue
            }
            if let other = folders[descriptor] {
                cannotWatch(path, "it is the folder \(other) under another name, and its changes are reported under that name only")
                continue
            }
            folders[descriptor] = path
            descriptors[path] = descriptor
            unwatched.remove(path)
            let entries: [FolderEntries.Entry]
            do {
                entries = try FolderEntries.read(path, followingLinks: false, includingHidden: true)
            } catch {
                // Unwatched again, so that the chmod that makes it readable watches it whole.
                inotify_rm_watch(inotify, descriptor)
                folders[descriptor] = nil
                descriptors[path] = nil
                cannotWatch(path, Self.reason(error))
                continue
            }
            for (name, status) in entries {
                let child = path + "/" + name
                if reportingContents { pending.insert(child) }
                if status.isFolder || (status.st_mode & S_IFMT == S_IFLNK && Self.isFolder(child)) { toWatch.append(child) }
            }
        }
    }

    /// Watches the parent of the asked-for folder `path` for it to appear.
    private func awaitRoot(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        let descriptor = inotify_add_watch(inotify, parent, Self.appearingEvents)
        guard descriptor >= 0 else { return false }
        awaited[descriptor, default: [:]][url.lastPathComponent] = path
        return true
    }

    private func cannotWatch(_ path: String, _ reason: String) {
        guard unwatched.insert(path).inserted else { return }
        onUnwatched(URL(fileURLWithPath: path), "cannot watch this folder (\(reason)): changes in it are not seen until that is fixed")
    }

    private static func reason(_ code: Int32) -> String {
        code == ENOSPC
            ? "the limit of inotify watches is reached: raise fs.inotify.max_user_watches"
            : String(cString: strerror(code))
    }

    private static func reason(_ failure: FolderFailure) -> String {
        switch failure.reason {
        case .missing: return reason(ENOENT)
        case .notAFolder: return reason(ENOTDIR)
        case .unreadable(let code): return failure.entry.map { "\($0): \(reason(code))" } ?? reason(code)
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.isFolder
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
        if mask & UInt32(IN_IGNORED) != 0 {
            if let folder = folders.removeValue(forKey: descriptor) {
                descriptors[folder] = nil
                if roots.contains(folder) { _ = awaitRoot(folder) }
            }
            awaited[descriptor] = nil
            return
        }
        if let root = awaited[descriptor]?[name], Self.isFolder(root) {
            awaited[descriptor]?[name] = nil
            pending.insert(root)
            watchTree(root, reportingContents: true)
        }
        guard let folder = folders[descriptor] else { return }
        guard !name.isEmpty else {
            // The watched folder itself was deleted or moved away.
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { pending.insert(folder) }
            if mask & UInt32(IN_MOVE_SELF) != 0, roots.contains(folder) {
                unwatchTree(folder)
                _ = awaitRoot(folder)
            }
            return
        }
        let path = folder + "/" + name
        pending.insert(path)
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            if descriptors[path] != nil { unwatchTree(path) }
        } else if mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB) != 0, descriptors[path] == nil, Self.isFolder(path) {
            // A new folder, a link to one, or one that can be read again after a chmod.
            watchTree(path, reportingContents: true)
        }
    }

    /// Drops the watches of a folder moved away or deleted (or of a link to one): their paths
    /// no longer name them.
    private func unwatchTree(_ path: String) {
        for (descriptor, folder) in folders where folder == path || folder.hasPrefix(path + "/") {
            inotify_rm_watch(inotify, descriptor)
            folders[descriptor] = nil
            descriptors[folder] = nil
        }
    }
}
