import Foundation
import Synchronization
import TomoCore

/// A build's output folder, changed only when the whole build succeeded.
///
/// It writes into a folder claimed by an `OutputLock`, so no other build writes there at the same
/// time. Into a new folder (nothing of a previous build in it) files are written in place, and the
/// lock removes them again unless the build commits. Otherwise only what changed is touched: each
/// new or changed file is first written beside its target under a temporary name, and only
/// `commit()` renames them all into place and deletes the files the site no longer has (only
/// files tomo made, `MadeFiles`: a file put there by hand is kept, and named). Until
/// `commit()`, the output is exactly as it was, so a build that fails (bad content, a broken
/// template, an unreadable image, a full disk while writing) leaves it untouched; `discard()`
/// removes the temporary files. Unchanged files are never rewritten, so their modification time
/// stays and uploads that compare dates skip them.
public final class OutputFolder: Sendable {
    /// The suffix of a file waiting for `commit()`.
    static let pendingSuffix = ".tomo-new"

    public let destination: URL
    /// Where files are written.
    private let root: String
    /// Whether the folder is new: files go straight to their place, and there is nothing to rename.
    private let isFresh: Bool
    private let lock: OutputLock
    private let state = Mutex(State())

    /// The digests of the output's files as the last build left them (from its kept state), so
    /// an unchanged file is recognised without reading it; nil when unknown.
    private let kept: OutputDigests?
    /// The files tomo made in this output before this build, besides those of the kept digests
    /// (`MadeFiles`): with the kept digests' gone paths, the only ones commit deletes.
    private let madeBefore: Set<String>?

    private struct State {
        /// Files with new or changed bytes.
        var written = 0
        /// Files left as they were, when they were compared (without kept digests).
        var unchanged = 0
        /// Every path of the new site, with its digest. With kept digests it starts as the last
        /// build's files: a build renders only what may have changed and names what is gone.
        var digests = OutputDigests()
        /// Files of the last build the site no longer has, to delete on commit.
        var gone: [String] = []
        /// Files in the output that are not the site's and that tomo did not make, found by a
        /// commit without kept digests (which lists the output).
        var foreign: [String] = []
        /// Temporary file → final path, for files to rename on commit.
        var pending: [(temporary: String, target: String)] = []
        /// The copy in the output (where it is until commit) of each source `linkFile` could not
        /// link to.
        var copies: [String: String] = [:]
        /// Folders this build created in the output, to remove on discard.
        var createdFolders: [String] = []
        var knownFolders: Set<String> = [""]
        /// `commit()` has begun to change the output.
        var isTouched = false
    }

    public struct Tally: Sendable, Equatable {
        /// Files with new or changed bytes.
        public var written = 0
        /// Files left as they were.
        public var unchanged = 0
        public var total: Int { written + unchanged }
    }

    /// Claims the folder itself (waiting for another build in it): for a caller that does not
    /// read the last build's state first. Commit deletes only the files of `madeBefore`.
    public convenience init(destination: URL, madeBefore: Set<String>? = nil) throws(Diagnostic) {
        try self.init(lock: OutputLock(destination: destination), kept: nil, madeBefore: madeBefore)
    }

    init(lock: OutputLock, kept: OutputDigests?, madeBefore: Set<String>?) throws(Diagnostic) {
        self.lock = lock
        destination = lock.destination
        root = destination.path
        isFresh = lock.isNew
        self.kept = isFresh ? nil : kept
        self.madeBefore = isFresh ? nil : madeBefore
        if let kept = self.kept { state.withLock { $0.digests = kept } }
        try lock.beginWriting()
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
        _ = try place(bytes, at: try prepare(path, digest), for: path)
    }

    /// Puts `bytes` at `target` (`path`, prepared), unless it holds them already; returns the
    /// file that holds them now (the temporary one until commit).
    private func place(_ bytes: [UInt8], at target: String, for path: String) throws(Diagnostic) -> String {
        if !isFresh, kept == nil, Self.file(at: target, holds: bytes) {
            state.withLock { $0.unchanged += 1 }
            return target
        }
        let file = pendingFile(for: target)
        if let failure = Self.create(file, with: bytes) {
            throw Diagnostic("cannot write \(path) in the output: \(String(cString: strerror(failure)))")
        }
        record(file, for: target)
        return file
    }

    /// Takes `paths`, files the last build wrote, out of the new output: commit deletes them.
    func remove(_ paths: [String]) {
        state.withLock { state in
            for path in paths where state.digests.removeValue(forKey: path) != nil { state.gone.append(path) }
        }
    }

    /// The files found in the output at commit that are not the site's and that tomo did not
    /// make: kept, for the build to name. Only a build without kept digests lists the output.
    var foreignFiles: [String] { state.withLock { $0.foreign.sorted() } }

    /// The digest of every file of the new output, for the next build.
    var digests: OutputDigests { state.withLock { $0.digests } }

    /// Whether the kept digests say `path` already holds these bytes.
    private func isUnchanged(_ path: String, _ digest: FileDigest) throws(Diagnostic) -> Bool {
        guard let kept, kept[path] == digest else { return false }
        try Self.check(path)
        return true
    }

    /// Puts the file at `source` (an immutable file, such as a cached thumbnail) at `path` by hard
    /// link, so no bytes are copied and an unchanged file keeps its identity and mtime; copies
    /// when a link is impossible: the cache is on another file system, or `source` has as many
    /// links as the file system allows (65,000 on ext4: one photo in every post of a large
    /// site). The copy is then what the next paths of the same source link to, until it too has
    /// as many as it may.
    public func linkFile(from source: String, to path: String) throws(Diagnostic) {
        let digest = FileDigest(linkedFrom: source)
        if try isUnchanged(path, digest) { return }
        let target = try prepare(path, digest)
        // The copies are looked up only once the source itself would not do: not for each of
        // the hundreds of thousands of thumbnails that link to their cached file.
        if !isFresh, Self.sameFile(source, target) || copy(of: source).map({ Self.sameFile($0, target) }) ?? false {
            state.withLock { $0.unchanged += 1 }
            return
        }
        let file = pendingFile(for: target)
        if link(source, file) == 0 || copy(of: source).map({ link($0, file) == 0 }) ?? false {
            record(file, for: target)
            return
        }
        switch RegularFile.read(source) {
        case .success(let bytes):
            let placed = try place(bytes, at: target, for: path)
            state.withLock { $0.copies[source] = placed }
        case .failure(let failure):
            throw Diagnostic("cannot read \(source) to publish it as \(path): \(failure.reason)")
        }
    }

    /// The copy `linkFile` made of `source` because it could not link to it, if any.
    private func copy(of source: String) -> String? {
        state.withLock { $0.copies[source] }
    }

    /// Makes the new output the output: renames every waiting file into place and deletes the
    /// files tomo made that the site no longer has. Without kept digests it lists the output too,
    /// for the files tomo did not make (`foreignFiles`).
    public func commit() throws(Diagnostic) {
        if !isFresh {
            let (pending, digests, gone) = state.withLock { state in (state.pending, state.digests, state.gone) }
            let goneFiles = gone + (madeBefore?.filter { digests[$0] == nil } ?? [])
            // A new file whose place a folder holding files tomo did not make takes would fail
            // half way through: it fails the build now, with the output as it was.
            if let blocked = blockedPlace(among: pending.map(\.1), gone: Set(goneFiles)) { throw blocked }
            state.withLock { $0.isTouched = true }
            // Gone files first: a folder they leave empty may be where a new file goes. One
            // that cannot be deleted fails the build before any new file lands: the site no
            // longer has it (a post made private, a user removed), and the record keeps naming
            // it, so the next build deletes it.
            let undeleted = removeGoneFiles(goneFiles)
            if !undeleted.isEmpty { throw Self.deletionFailure(undeleted) }
            for (temporary, target) in pending where rename(temporary, target) != 0 {
                throw Diagnostic("cannot replace \(target): \(String(cString: strerror(errno)))")
            }
            if kept == nil {
                let foreign = files(notIn: digests)
                state.withLock { $0.foreign = foreign }
            }
        }
        lock.endWriting(committed: true)
    }

    /// Whether the output is still as the last build left it: nothing was committed, not even
    /// in part (a commit that failed half way has replaced some files).
    var isAsBefore: Bool { state.withLock { !$0.isTouched } }

    /// Throws the new output away; the previous output stays as it was (except for what a
    /// commit that failed half way had already replaced).
    public func discard() {
        if isFresh {
            // The lock removes the new folder's files when it is released.
            lock.endWriting(committed: false)
            return
        }
        let (pending, folders) = state.withLock { ($0.pending, $0.createdFolders) }
        for (temporary, _) in pending { unlink(temporary) }
        for folder in folders.reversed() { rmdir(folder) }
        lock.endWriting(committed: false)
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
        if OutputLock.ownNames.contains(path) { return "tomo keeps the name \(path) for itself" }
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
                if lstat(full, &status) != 0 || !status.isFolder {
                    try replaceMadeFile(at: folder, withFolder: full)
                }
            }
            state.withLock { _ = $0.knownFolders.insert(folder) }
        }
        return root + "/" + path
    }

    /// A file tomo made stands where the new site needs a folder (`static/CNAME` became a folder
    /// of that name): the new site cannot have that file, so it goes now, and the output is no
    /// longer as before (the build state is not kept if the build then fails). Anything else in
    /// the way is an error.
    private func replaceMadeFile(at folder: String, withFolder full: String) throws(Diagnostic) {
        guard madeBefore?.contains(folder) == true || kept?[folder] != nil else {
            throw Diagnostic("\(folder) in the output is not a folder: delete it and build again")
        }
        guard unlink(full) == 0, mkdir(full, 0o755) == 0 else {
            throw Self.deletionFailure([(folder, errno)])
        }
        state.withLock { state in
            state.isTouched = true
            state.createdFolders.append(full)
        }
    }

    /// Where a file's new bytes go until commit: the target itself in a new folder, beside it
    /// under a temporary name otherwise (cleared of one an older tomo may have left there).
    private func pendingFile(for target: String) -> String {
        guard !isFresh else { return target }
        let file = Self.pendingName(for: target)
        unlink(file)
        return file
    }

    /// `target` and `.tomo-new`; or, when that name would be longer than a file system allows
    /// (255 bytes: a file of `static/` may be named with 250), the name cut short at a whole
    /// character and told apart from others cut the same way by a hash of the whole name.
    static func pendingName(for target: String) -> String {
        let nameStart = target.lastIndex(of: "/").map { target.index(after: $0) } ?? target.startIndex
        let name = target[nameStart...]
        let limit = 255
        guard name.utf8.count + pendingSuffix.utf8.count > limit else { return target + pendingSuffix }
        var hasher = StableHasher()
        hasher.add(String(name))
        let tag = "-" + String(hasher.value, radix: 16) + pendingSuffix
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count + tag.utf8.count <= limit else { break }
            kept.append(character)
        }
        return target[..<nameStart] + kept + tag
    }

    private func record(_ file: String, for target: String) {
        state.withLock { state in
            state.written += 1
            if file != target { state.pending.append((file, target)) }
        }
    }

    /// What a version-control checkout keeps at its top: `public/` is often a checkout of the
    /// branch a host publishes (GitHub Pages' `gh-pages`), and its history is no stray file.
    static let versionControlNames: Set<String> = [".git", ".hg", ".svn"]

    /// Every file of the output that is not in `paths` nor tomo's bookkeeping (nor a checkout's
    /// history).
    private func files(notIn paths: OutputDigests) -> [String] {
        var found: [String] = []
        // An explicit stack: a deep output must not deepen the call stack.
        var folders = [""]
        while let relative = folders.popLast() {
            let full = relative.isEmpty ? root : root + "/" + relative
            for (name, status) in FolderEntries.list(full, followingLinks: false, includingHidden: true) ?? [] {
                if relative.isEmpty, Self.versionControlNames.contains(name) { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if status.isFolder {
                    folders.append(path)
                } else if paths[path] == nil, !OutputLock.ownNames.contains(path) {
                    found.append(path)
                }
            }
        }
        return found
    }

    /// Deletes the files the last build left that the site no longer has, then their folders
    /// that became empty, without listing the whole output. Only inside real folders of the
    /// output: where a folder of the path is now a symbolic link (to a folder anywhere), the
    /// file is not deleted through it. The files and folders that could not be deleted (a
    /// folder without write permission, an immutable file), with why.
    private func removeGoneFiles(_ gone: some Sequence<String>) -> [(path: String, reason: Int32)] {
        var failures: [(path: String, reason: Int32)] = []
        var folders: Set<String> = []
        var isRealFolder: [Substring: Bool] = ["": true]
        /// Whether `folder` and every folder it is in are folders of the output, not links.
        func isReal(_ folder: Substring) -> Bool {
            if let known = isRealFolder[folder] { return known }
            // From the top down, each folder looked at once.
            var start = folder.startIndex
            while true {
                let end = folder[start...].firstIndex(of: "/") ?? folder.endIndex
                let prefix = folder[..<end]
                let real = isRealFolder[prefix] ?? {
                    var status = stat()
                    let real = lstat(root + "/" + prefix, &status) == 0 && status.isFolder
                    isRealFolder[prefix] = real
                    return real
                }()
                if !real || end == folder.endIndex { return real }
                start = folder.index(after: end)
            }
        }
        for path in gone {
            let parent = path.lastIndex(of: "/").map { path[..<$0] } ?? ""
            guard isReal(parent) else { continue }
            // Gone already, or replaced by a folder (or under a file) this build made there.
            if unlink(root + "/" + path) != 0, ![ENOENT, EISDIR, ENOTDIR].contains(errno) { failures.append((path, errno)) }
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                folders.insert(String(folder))
            }
        }
        // Deepest first; a folder that still holds something stays. An empty one that stays
        // (its parent not writable) is told too when every file went: it would make this
        // output differ from a full build's.
        let filesFailed = !failures.isEmpty
        for folder in folders.sorted(by: { $0.count > $1.count }) where rmdir(root + "/" + folder) != 0 {
            // (A mount point, `EBUSY`, is no folder a build made.)
            if !filesFailed, ![ENOTEMPTY, EEXIST, ENOENT, ENOTDIR, EBUSY].contains(errno) { failures.append((folder + "/", errno)) }
        }
        return failures
    }

    /// The error for the first of `targets` (full paths of new files) that is a folder holding
    /// anything but files the site no longer has (`gone`, by path in the output), which would
    /// make its file's rename fail half way through a commit; nil when there is none.
    private func blockedPlace(among targets: [String], gone: Set<String>) -> Diagnostic? {
        for target in targets {
            var status = stat()
            guard lstat(target, &status) == 0, status.isFolder else { continue }
            let relative = String(target.dropFirst(root.count + 1))
            let walk = FolderEntries.files(under: target, display: relative, followingLinks: false, includingHidden: true)
            let foreign = (walk.files ?? []).map { relative + "/" + $0 }.filter { !gone.contains($0) }
            guard !foreign.isEmpty || walk.files == nil else { continue }
            let named = foreign.isEmpty ? "files it cannot list" : foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
            return Diagnostic("the site now has a file \(relative), and the output has a folder there holding files tomo did not make (\(named)): move them out of the output, then build again")
        }
        return nil
    }

    /// The error of a build that could not delete `undeleted` (by path in the output).
    private static func deletionFailure(_ undeleted: [(path: String, reason: Int32)]) -> Diagnostic {
        let shown = undeleted.prefix(5).map { "\($0.path) (\(String(cString: strerror($0.reason))))" }.joined(separator: ", ")
        let more = undeleted.count > 5 ? " and \(undeleted.count - 5) more" : ""
        return Diagnostic(
            "cannot delete \(Plural.count(undeleted.count, "file")) the site no longer has from the output: \(shown)\(more); until they go they stay published: make them deletable (their folders writable), then build again"
        )
    }

    /// Creates `file` holding `bytes` (never through a link or over a file already there); the
    /// errno on failure, when nothing of it is left (a full disk must not leave half a file
    /// behind).
    static func create(_ file: String, with bytes: [UInt8]) -> Int32? {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        let failure = bytes.withUnsafeBytes { buffer -> Int32? in
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
        close(descriptor)
        if failure != nil { unlink(file) }
        return failure
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
}
