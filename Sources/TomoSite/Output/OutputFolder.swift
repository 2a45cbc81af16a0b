import Foundation
import Synchronization
import TomoCore

/// A build's output folder, changed only when the whole build succeeded.
///
/// The first build writes into a fresh staging folder beside the output and renames it into
/// place. Later builds touch only what changed: each new or changed file is first written beside
/// its target under a temporary name, and only `commit()` renames them all into place and deletes
/// the files the site no longer has. Until `commit()`, the output is exactly as it was, so a build
/// that fails (bad content, a broken template, an unreadable image, a full disk while writing)
/// leaves it untouched; `discard()` removes the temporary files. Unchanged files are never
/// rewritten, so their modification time stays and uploads that compare dates skip them.
public final class OutputFolder: Sendable {
    /// Marks a folder as tomo's output: a non-empty folder without it is never written to.
    public static let markerName = ".tomo-output"
    /// The suffix of a file waiting for `commit()`.
    static let pendingSuffix = ".tomo-new"

    public let destination: URL
    /// Where files are written: the staging folder on a first build, the output itself after.
    private let root: String
    /// Whether `root` is a fresh staging folder to rename into place.
    private let isFresh: Bool
    private let state = Mutex(State())

    /// The digests of the output's files as the last build left them (from its kept state), so
    /// an unchanged file is recognised without reading it; nil when unknown.
    private let kept: [String: FileDigest]?

    private struct State {
        /// Files with new or changed bytes.
        var written = 0
        /// Files left as they were, when they were compared (without kept digests).
        var unchanged = 0
        /// Every path of the new site, with its digest. With kept digests it starts as the last
        /// build's files: a build renders only what may have changed and names what is gone.
        var digests: [String: FileDigest] = [:]
        /// Files of the last build the site no longer has, to delete on commit.
        var gone: [String] = []
        /// Temporary file → final path, for files to rename on commit.
        var pending: [(temporary: String, target: String)] = []
        /// Folders this build created in the output, to remove on discard.
        var createdFolders: [String] = []
        var knownFolders: Set<String> = [""]
    }

    public struct Tally: Sendable, Equatable {
        /// Files with new or changed bytes.
        public var written = 0
        /// Files left as they were.
        public var unchanged = 0
        public var total: Int { written + unchanged }
    }

    public convenience init(destination: URL) throws(Diagnostic) {
        try self.init(destination: destination, kept: nil)
    }

    init(destination: URL, kept: [String: FileDigest]?) throws(Diagnostic) {
        self.destination = destination.standardizedFileURL
        let fileManager = FileManager.default
        let parent = self.destination.deletingLastPathComponent()
        let name = self.destination.lastPathComponent
        Self.removeAbandonedStagingFolders(in: parent, for: name)
        // Listed, not only looked at: a folder whose names cannot be read may hold anything,
        // and writing the marker into it would make its files tomo's to delete.
        let names: [String]?
        do {
            names = try FolderEntries.read(self.destination.path, followingLinks: false, includingHidden: true).map(\.name)
        } catch {
            switch error.reason {
            case .missing:
                names = nil
            case .notAFolder:
                throw Diagnostic("\(destination.path) is a file, not a folder: choose another output folder with --out")
            case .unreadable(let code):
                throw Diagnostic("cannot read the output folder \(destination.path) (\(String(cString: strerror(code)))): tomo writes only into a folder it can see is its own; make it readable (chmod u+rx) or choose another output folder with --out")
            }
        }
        if let names, !names.isEmpty, !names.contains(Self.markerName) {
            throw Diagnostic("\(destination.path) holds files that tomo did not write: move them away or choose another output folder with --out (tomo manages its output folder as a whole)")
        }
        let exists = names != nil
        if exists {
            root = self.destination.path
            isFresh = false
            self.kept = kept
            if let kept { state.withLock { $0.digests = kept } }
        } else {
            let staging = parent.appendingPathComponent(".\(name).tomo-staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            do {
                try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
                try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
            } catch {
                throw Diagnostic("cannot create the output folder beside \(destination.path): \(error.localizedDescription)")
            }
            root = staging.path
            isFresh = true
            self.kept = nil
        }
        try write(Array("This folder is written by tomo build; files tomo did not write are deleted on the next build.\n".utf8), to: Self.markerName)
        // The marker is bookkeeping, not a page: counts start after it.
        state.withLock { state in
            state.written = 0
            state.unchanged = 0
            state.digests[Self.markerName] = nil
        }
    }

    /// How many files were written and left unchanged so far.
    public var counts: Tally {
        state.withLock { state in
            kept == nil
                ? Tally(written: state.written, unchanged: state.unchanged)
                : Tally(written: state.written, unchanged: state.digests.count - state.written)
        }
    }

    /// Writes `bytes` to `path` (relative, `/`-separated) in the new output. Safe to call from
    /// several threads at once.
    public func write(_ bytes: [UInt8], to path: String) throws(Diagnostic) {
        let digest = FileDigest(of: bytes)
        if try isUnchanged(path, digest) { return }
        let target = try prepare(path, digest)
        if !isFresh, kept == nil, Self.file(at: target, holds: bytes) {
            state.withLock { $0.unchanged += 1 }
            return
        }
        let file = pendingFile(for: target)
        if let failure = Self.create(file, with: bytes) {
            throw Diagnostic("cannot write \(path) in the output: \(String(cString: strerror(failure)))")
        }
        record(file, for: target)
    }

    /// Takes `paths`, files the last build wrote, out of the new output: commit deletes them.
    func remove(_ paths: [String]) {
        state.withLock { state in
            for path in paths where state.digests.removeValue(forKey: path) != nil { state.gone.append(path) }
        }
    }

    /// The digest of every file of the new output, for the next build.
    var digests: [String: FileDigest] { state.withLock { $0.digests } }

    /// Whether the kept digests say `path` already holds these bytes.
    private func isUnchanged(_ path: String, _ digest: FileDigest) throws(Diagnostic) -> Bool {
        guard let kept, kept[path] == digest else { return false }
        try Self.check(path)
        return true
    }

    /// Puts the file at `source` (an immutable file, such as a cached thumbnail) at `path` by hard
    /// link, so no bytes are copied and an unchanged file keeps its identity and mtime; copies
    /// when a link is impossible (another file system).
    public func linkFile(from source: String, to path: String) throws(Diagnostic) {
        let digest = FileDigest(linkedFrom: source)
        if try isUnchanged(path, digest) { return }
        let target = try prepare(path, digest)
        if !isFresh, Self.sameFile(source, target) {
            state.withLock { $0.unchanged += 1 }
            return
        }
        let file = pendingFile(for: target)
        if link(source, file) == 0 {
            record(file, for: target)
            return
        }
        switch RegularFile.read(source) {
        case .success(let bytes): try write(bytes, to: path)
        case .failure(let failure): throw Diagnostic("cannot read \(source) to publish it as \(path): \(failure.reason)")
        }
    }

    /// Makes the new output the output: renames every waiting file into place and deletes what
    /// the site no longer has (on a first build, renames the whole staging folder).
    public func commit() throws(Diagnostic) {
        if isFresh {
            guard rename(root, destination.path) == 0 else {
                throw Diagnostic("cannot create \(destination.path): \(String(cString: strerror(errno)))")
            }
            return
        }
        let (pending, digests, gone) = state.withLock { ($0.pending, $0.digests, $0.gone) }
        for (temporary, target) in pending where rename(temporary, target) != 0 {
            throw Diagnostic("cannot replace \(target): \(String(cString: strerror(errno)))")
        }
        if kept != nil {
            removeGoneFiles(gone)
        } else {
            removeFiles(notIn: digests)
        }
    }

    /// Throws the new output away; the previous output stays as it was.
    public func discard() {
        if isFresh {
            try? FileManager.default.removeItem(atPath: root)
            return
        }
        let (pending, folders) = state.withLock { ($0.pending, $0.createdFolders) }
        for (temporary, _) in pending { unlink(temporary) }
        for folder in folders.reversed() { rmdir(folder) }
    }

    /// Why `path` may not be written, or nil: only plain relative names, never `..`, so nothing
    /// lands outside the output folder whatever a handle or slug contained.
    static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") { return "the path is absolute" }
        if path.utf8.contains(0) { return "the path contains a NUL byte" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." {
                return "the path has an empty, '.' or '..' part"
            }
        }
        if path.hasSuffix(pendingSuffix) { return "the name ends in \(pendingSuffix), which tomo keeps for itself" }
        return nil
    }

    /// Throws when `path` may not be written (see `pathProblem`).
    private static func check(_ path: String) throws(Diagnostic) {
        if let problem = pathProblem(path) {
            throw Diagnostic("refusing to write \"\(path)\": \(problem)")
        }
    }

    /// Checks `path`, makes its folders and returns where it goes.
    private func prepare(_ path: String, _ digest: FileDigest) throws(Diagnostic) -> String {
        try Self.check(path)
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        let parentKnown = state.withLock { state in
            state.digests[path] = digest
            return state.knownFolders.contains(parent)
        }
        if parentKnown { return root + "/" + path }
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(component) : "/" + component
            if state.withLock({ $0.knownFolders.contains(folder) }) { continue }
            let full = root + "/" + folder
            if mkdir(full, 0o755) == 0 {
                state.withLock { $0.createdFolders.append(full) }
            } else if errno != EEXIST {
                throw Diagnostic("cannot create folder \(folder) in the output: \(String(cString: strerror(errno)))")
            } else {
                var status = stat()
                guard lstat(full, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                    throw Diagnostic("\(folder) in the output is not a folder: delete it and build again")
                }
            }
            state.withLock { _ = $0.knownFolders.insert(folder) }
        }
        return root + "/" + path
    }

    /// Where a file's new bytes go until commit: the target itself in a fresh staging folder,
    /// beside it under a temporary name otherwise (cleared of what a killed build left there).
    private func pendingFile(for target: String) -> String {
        guard !isFresh else { return target }
        let file = target + Self.pendingSuffix
        unlink(file)
        return file
    }

    private func record(_ file: String, for target: String) {
        state.withLock { state in
            state.written += 1
            if file != target { state.pending.append((file, target)) }
        }
    }

    /// Deletes every file of the output that is not in `paths` (old pages, files left by a killed
    /// build), then the folders that became empty.
    private func removeFiles(notIn paths: [String: FileDigest]) {
        /// Whether the folder is empty once its stale files are gone.
        func clean(_ relative: String) -> Bool {
            let full = relative.isEmpty ? root : root + "/" + relative
            var left = 0
            for (name, status) in FolderEntries.list(full, followingLinks: false, includingHidden: true) ?? [] {
                let path = relative.isEmpty ? name : relative + "/" + name
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    if clean(path), rmdir(root + "/" + path) == 0 { continue }
                } else if paths[path] == nil, path != Self.markerName, unlink(root + "/" + path) == 0 {
                    continue
                }
                left += 1
            }
            return left == 0
        }
        _ = clean("")
    }

    /// Deletes the files the last build left that the site no longer has, then their folders
    /// that became empty, without listing the whole output.
    private func removeGoneFiles(_ gone: [String]) {
        var folders: Set<String> = []
        for path in gone {
            unlink(root + "/" + path)
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                folders.insert(String(folder))
            }
        }
        // Deepest first; a folder that still holds something stays.
        for folder in folders.sorted(by: { $0.count > $1.count }) { rmdir(root + "/" + folder) }
    }

    /// Creates `file` holding `bytes`; the errno on failure.
    private static func create(_ file: String, with bytes: [UInt8]) -> Int32? {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    private static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        return stat(first, &a) == 0 && lstat(second, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev
    }

    /// Whether the regular file at `path` (not a link) holds exactly `bytes`.
    private static func file(at path: String, holds bytes: [UInt8]) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == bytes.count else {
            return false
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var existing = [UInt8](repeating: 0, count: bytes.count)
        var offset = 0
        while offset < existing.count {
            let count = existing.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + offset, buffer.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return existing == bytes
    }

    /// Staging folders left by a first build that was killed: their process is gone.
    private static func removeAbandonedStagingFolders(in parent: URL, for name: String) {
        let prefix = ".\(name).tomo-staging-"
        for entry in (FolderEntries.list(parent.path, followingLinks: false, includingHidden: true) ?? []).map(\.name) where entry.hasPrefix(prefix) {
            let pidText = entry.dropFirst(prefix.count).prefix(while: { $0.isNumber })
            guard let pid = pid_t(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: parent.appendingPathComponent(entry).path)
        }
    }
}
