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
    /// The rule links are followed by (none: every link is).
    private let links: SiteLinks?
    /// The folders asked for, watched with all they hold whenever they exist.
    private var roots: Set<String> = []
    /// Each watched folder by its watch descriptor, and the descriptor of each.
    private var folders: [Int32: String] = [:]
    private var descriptors: [String: Int32] = [:]
    /// The asked-for folders by the watch of the folder they are in, and their names there: the
    /// name made, deleted, moved or made a link to another folder is seen there.
    private var awaited: [Int32: [String: String]] = [:]
    /// Other names of watched folders (links to them), by the name they are watched under: a
    /// change in the folder is reported under each.
    private var aliases: [String: Set<String>] = [:]
    /// Links to files, by the watch of the folder their target is in and the target's name.
    private var fileLinks: [Int32: [String: Set<String>]] = [:]
    /// Folders that could not be watched and were reported, each once until it is watched.
    private var unwatched: Set<String> = []
    private var pending: Set<String> = []
    private var firstPendingAt = ContinuousClock.now
    private var lastEventAt = ContinuousClock.now
    /// The files of the batch written to and not closed since (by the watch of their folder
    /// and their name): while there are any, the batch waits for `debounce`; once every file
    /// written was closed (a save is whole, a rename done), only for `settle`.
    private var beingWritten: Set<WatchedName> = []
    /// How long a batch whose files are all closed waits for more: an editor's save (a
    /// temporary file written, closed and renamed over the original) comes within it.
    private let settle: Duration
    /// A batch is reported at the latest this long after its first change, even when changes
    /// keep coming (a long copy into the folder).
    private let longestDelay = Duration.seconds(1)

    private static let watchedEvents = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY
        | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// What the folder an asked-for folder is in is watched for, added to its other watch.
    private static let namingEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_MASK_ADD)

    init(inotify: Int32, stopReadEnd: Int32, debounce: Duration, settle: Duration, links: SiteLinks?,
         onUnwatched: @escaping @Sendable (URL, String) -> Void, onChange: @escaping @Sendable ([URL]) -> Void) {
        self.inotify = inotify
        self.stopReadEnd = stopReadEnd
        self.debounce = debounce
        self.settle = min(debounce, settle)
        self.links = links
        self.onUnwatched = onUnwatched
        self.onChange = onChange
    }

    /// Watches the folder at `path` and everything below it, now or, when it does not exist,
    /// from the moment it appears in its parent. False when neither can be done.
    func watchRoot(_ path: String) -> Bool {
        roots.insert(path)
        guard awaitRoot(path) else { return false }
        if Self.isFolder(path), follows(path) { watchTree(path, reportingContents: false) }
        return true
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
            let isAlias = folders[descriptor].map { other in
                // A link to a folder watched under another name: its changes are reported
                // under this name too.
                aliases[other, default: []].insert(path)
                return true
            } ?? false
            if !isAlias {
                folders[descriptor] = path
                descriptors[path] = descriptor
                unwatched.remove(path)
            }
            let entries: [FolderEntries.Entry]
            do {
                entries = try FolderEntries.read(path, followingLinks: false, includingHidden: true)
            } catch {
                // Unwatched again, so that the chmod that makes it readable watches it whole.
                if !isAlias {
                    inotify_rm_watch(inotify, descriptor)
                    folders[descriptor] = nil
                    descriptors[path] = nil
                }
                cannotWatch(path, Self.reason(error))
                continue
            }
            for (name, status) in entries {
                let child = path + "/" + name
                if reportingContents { report(child) }
                // What is below a second name is watched under the first.
                guard !isAlias else { continue }
                if status.isFolder {
                    toWatch.append(child)
                } else if status.isLink, follows(child) {
                    if Self.isFolder(child) { toWatch.append(child) } else { watchLinkedFile(child) }
                }
            }
        }
    }

    /// Whether the link (or folder) at `path` is followed: always without a rule, else when the
    /// rule lets the build read through it.
    private func follows(_ path: String) -> Bool {
        guard let links, path.hasPrefix(links.site + "/") else { return true }
        var status = stat()
        guard lstat(path, &status) == 0, status.isLink else { return true }
        return links.problem(ofLink: String(path.dropFirst(links.site.count + 1))) == nil
    }

    /// Watches the folder the target of the link at `path` is in, so that an edit of the
    /// target is reported under the link's name.
    private func watchLinkedFile(_ path: String) {
        guard let target = SiteLinks.realPath(path) else { return }
        let url = URL(fileURLWithPath: target)
        let descriptor = inotify_add_watch(inotify, url.deletingLastPathComponent().path, Self.watchedEvents | UInt32(IN_MASK_ADD))
        guard descriptor >= 0 else { return }
        fileLinks[descriptor, default: [:]][url.lastPathComponent, default: []].insert(path)
    }

    /// Forgets the links at `path` or below it (deleted, moved away or replaced), and the
    /// watches kept for their targets alone.
    private func forgetLinks(at path: String) {
        let gone = { (link: String) in link == path || link.hasPrefix(path + "/") }
        for (folder, names) in aliases {
            let kept = names.filter { !gone($0) }
            aliases[folder] = gone(folder) || kept.isEmpty ? nil : kept
        }
        for (descriptor, targets) in fileLinks {
            let kept = targets.compactMapValues { links in
                let kept = links.filter { !gone($0) }
                return kept.isEmpty ? nil : kept
            }
            fileLinks[descriptor] = kept.isEmpty ? nil : kept
            if kept.isEmpty, folders[descriptor] == nil, awaited[descriptor] == nil { inotify_rm_watch(inotify, descriptor) }
        }
    }

    /// Adds `path` to the batch, and the same path under every other name of a folder it is in
    /// (and of a folder that name is in, each other name taken once on the way, so that a link
    /// to a folder holding it ends).
    /// The batch is due once nothing was reported for `debounce`: an event that reports nothing
    /// (in the folder a watched one is in, or that of a linked file) does not put it off.
    private func report(_ path: String) {
        let now = ContinuousClock.now
        if pending.isEmpty { firstPendingAt = now }
        lastEventAt = now
        pending.insert(path)
        guard !aliases.isEmpty else { return }
        var names: [(path: String, taken: Set<String>)] = [(path, [])]
        while let (name, taken) = names.popLast() {
            for (folder, others) in aliases where !taken.contains(folder) && (name == folder || name.hasPrefix(folder + "/")) {
                for other in others {
                    let renamed = other + name.dropFirst(folder.count)
                    pending.insert(renamed)
                    names.append((renamed, taken.union([folder])))
                }
            }
        }
    }

    /// Watches the parent of the asked-for folder `path` for that name to change.
    private func awaitRoot(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        let descriptor = inotify_add_watch(inotify, parent, Self.namingEvents)
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
        let due = dueAt
        let remaining = due - ContinuousClock.now
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds + 1))
    }

    private func flushIfQuiet() {
        guard !pending.isEmpty, ContinuousClock.now >= dueAt else { return }
        let batch = pending.sorted().map { URL(fileURLWithPath: $0) }
        pending.removeAll()
        // A file still open is seen again when it is written to or closed.
        beingWritten.removeAll()
        onChange(batch)
    }

    /// When the pending batch is due.
    private var dueAt: ContinuousClock.Instant {
        min(lastEventAt + (beingWritten.isEmpty ? settle : debounce), firstPendingAt + longestDelay)
    }

    /// Notes whether the file `name` in the folder of watch `descriptor` is being written
    /// (written to or made, not closed since) or no more (closed, deleted, moved away).
    private func noteWriting(descriptor: Int32, mask: UInt32, name: String) {
        guard !name.isEmpty, mask & UInt32(IN_ISDIR) == 0 else { return }
        let file = WatchedName(descriptor: descriptor, name: name)
        if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
            beingWritten.remove(file)
        } else if mask & UInt32(IN_MODIFY | IN_CREATE) != 0 {
            beingWritten.insert(file)
        }
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
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: report every watched folder so the caller rebuilds everything,
            // once the files being written may be whole (the closes may be among those lost).
            beingWritten.insert(WatchedName(descriptor: -1, name: ""))
            for folder in folders.values { report(folder) }
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            if let folder = folders.removeValue(forKey: descriptor) {
                descriptors[folder] = nil
                if roots.contains(folder) { _ = awaitRoot(folder) }
            }
            awaited[descriptor] = nil
            fileLinks[descriptor] = nil
            return
        }
        noteWriting(descriptor: descriptor, mask: mask, name: name)
        for link in fileLinks[descriptor]?[name] ?? [] { report(link) }
        let renaming = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
        if let root = awaited[descriptor]?[name], mask & renaming != 0 {
            // An asked-for folder made, deleted, moved, or a link to it replaced: watched
            // afresh under its name.
            report(root)
            unwatchTree(root)
            if Self.isFolder(root), follows(root) { watchTree(root, reportingContents: true) }
        }
        guard let folder = folders[descriptor] else { return }
        guard !name.isEmpty else {
            // The watched folder itself was deleted or moved away.
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { report(folder) }
            if mask & UInt32(IN_MOVE_SELF) != 0, roots.contains(folder) {
                unwatchTree(folder)
                _ = awaitRoot(folder)
            }
            return
        }
        let path = folder + "/" + name
        report(path)
        if mask & renaming != 0 {
            // What was at this name is gone (or replaced): its watches and links with it.
            if descriptors[path] != nil { unwatchTree(path) } else { forgetLinks(at: path) }
        }
        guard mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB) != 0, descriptors[path] == nil, follows(path) else { return }
        var status = stat()
        if Self.isFolder(path) {
            // A new folder, a link to one, or one that can be read again after a chmod.
            watchTree(path, reportingContents: true)
        } else if mask & UInt32(IN_ATTRIB) == 0, lstat(path, &status) == 0, status.isLink {
            watchLinkedFile(path)
        }
    }

    /// Drops the watches of a folder moved away or deleted (or of a link to one), and the links
    /// at or below it: their paths no longer name them. A folder still reached under another
    /// name (a link to it elsewhere) is watched under that name instead.
    private func unwatchTree(_ path: String) {
        let under = { (other: String) in other == path || other.hasPrefix(path + "/") }
        var otherNames: [String] = []
        for (descriptor, folder) in folders where under(folder) {
            inotify_rm_watch(inotify, descriptor)
            folders[descriptor] = nil
            descriptors[folder] = nil
            otherNames += aliases[folder]?.filter { !under($0) } ?? []
        }
        forgetLinks(at: path)
        for name in otherNames { watchTree(name, reportingContents: false) }
    }
}

/// A name in a watched folder, by the folder's watch.
private struct WatchedName: Hashable {
    let descriptor: Int32
    let name: String
}
