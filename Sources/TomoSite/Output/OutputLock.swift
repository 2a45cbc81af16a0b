import Foundation
import Synchronization
import TomoCore

/// One build at a time in an output folder, and the folder made whole again after a build that
/// was killed.
///
/// The lock is an exclusive `flock` on the folder's marker file (`.tomo-output`), taken before
/// the last build's state is read and held until the new state is saved. A second build into the
/// same folder waits for it, as a second `hugo` waits for its build lock. The kernel drops the
/// lock when its process ends, however it ends, so a wait is never for a lock nobody holds and
/// needs no time limit. The lock lives in the output rather than in the site: builds of two sites
/// into one folder wait for each other too, and a site on a read-only disk still builds.
///
/// A folder that does not exist is created with its marker at once, so there is always a marker
/// to lock, and removed again when the build does not succeed. While a build writes, a flag file
/// in the folder says how: `.tomo-writing-new` (every file in it is this build's) or
/// `.tomo-writing-update` (new bytes wait in `….tomo-new` files). A build killed meanwhile leaves
/// the flag behind, and the next claim removes what that build wrote before anything else.
public final class OutputLock: Sendable {
    public let destination: URL
    /// The folder held nothing but the marker when claimed: every file in it is this build's.
    let isNew: Bool
    /// This claim created the folder itself (removed again unless a build is committed into it).
    private let madeFolder: Bool
    private let descriptor: Int32
    private let state = Mutex(State())

    private struct State {
        var committed = false
        var released = false
    }

    static let markerName = FolderEntries.outputMarker
    static let markerText = "This folder is written by tomo build. It deletes only files it made; put files to publish in the site's static/ folder.\n"
    /// The flag of a build writing into a folder it created (`new`) or changing one (`update`).
    static let writingFlags = (new: ".tomo-writing-new", update: ".tomo-writing-update")
    /// The names at the top of the output that are tomo's bookkeeping, never a page.
    static let ownNames: Set<String> = [markerName, writingFlags.new, writingFlags.update, MadeFiles.name, MadeFiles.writingName]

    /// Claims `destination` for one build: creates it when missing, refuses a folder tomo did not
    /// write, waits (calling `waiting` once) while another build holds it, and cleans up after a
    /// build that was killed in it.
    public init(destination: URL, waiting: (@Sendable () -> Void)? = nil) throws(Diagnostic) {
        self.destination = destination.standardizedFileURL
        let (descriptor, madeFolder) = try Self.claim(self.destination, waiting: waiting)
        let path = self.destination.path
        Self.removeWhatAKilledBuildWrote(in: path)
        do {
            isNew = try Self.holdsOnlyTheMarker(path)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.madeFolder = madeFolder
    }

    deinit {
        release()
    }

    /// Marks the folder as being written, before the first file of a build lands in it.
    func beginWriting() throws(Diagnostic) {
        let flag = destination.path + "/" + (isNew ? Self.writingFlags.new : Self.writingFlags.update)
        // An empty file: it needs no room on a full disk.
        let file = open(flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Diagnostic("cannot write in the output folder \(destination.path): \(reason)")
        }
        close(file)
    }

    /// The build is over: committed (its files are the output now) or thrown away.
    func endWriting(committed: Bool) {
        for flag in [Self.writingFlags.new, Self.writingFlags.update] { unlink(destination.path + "/" + flag) }
        guard committed else { return }
        // The marker's change time (part of its identity, `BuildState.markerIdentity`) now
        // names this build: the kept state of any other build into this folder (another copy
        // of the site, the folder reached under another name, a cache restored from before)
        // no longer matches it, and that build's next run compares every file it makes.
        futimens(descriptor, nil)
        state.withLock { $0.committed = true }
    }

    /// Lets the next build in. A folder made for a build that did not succeed is removed again
    /// (its marker only, when it was an empty folder before), so it is as it was.
    public func release() {
        let (committed, released) = state.withLock { state in
            defer { state.released = true }
            return (state.committed, state.released)
        }
        guard !released else { return }
        if isNew, !committed {
            // Everything in a new folder is this build's; the marker goes last, while still locked.
            let path = destination.path
            for name in (FolderEntries.list(path, followingLinks: false, includingHidden: true) ?? []).map(\.name) where name != Self.markerName {
                try? FileManager.default.removeItem(atPath: path + "/" + name)
            }
            unlink(path + "/" + Self.markerName)
            if madeFolder { rmdir(path) }
        }
        close(descriptor)
    }

    // MARK: Claiming

    /// The locked marker of `folder`, made tomo's first when it is missing or empty, and
    /// whether the folder was created here.
    private static func claim(_ folder: URL, waiting: (@Sendable () -> Void)?) throws(Diagnostic) -> (descriptor: Int32, madeFolder: Bool) {
        let path = folder.path
        let markerPath = path + "/" + markerName
        var madeFolder = false
        var hasWaited = false
        func onceWaiting() {
            if !hasWaited { waiting?() }
            hasWaited = true
        }
        while true {
            // Most builds find their marker at once; only a missing one needs the folder listed.
            var status = stat()
            if lstat(markerPath, &status) == 0, let locked = try lockMarker(markerPath, waiting: onceWaiting) {
                return (locked, madeFolder)
            }
            let names: [String]
            do {
                // Listed, not only looked at: a folder whose names cannot be read may hold
                // anything, and writing the marker into it would make its files tomo's to delete.
                names = try FolderEntries.read(path, followingLinks: false, includingHidden: true).map(\.name)
            } catch {
                switch error.reason {
                case .missing:
                    try makeFolder(folder)
                    madeFolder = true
                    continue
                case .notAFolder:
                    throw Diagnostic("\(path) is a file, not a folder: choose another output folder with --out")
                case .unreadable(let code):
                    throw Diagnostic("cannot read the output folder \(path) (\(String(cString: strerror(code)))): tomo writes only into a folder it can see is its own; make it readable (chmod u+rx) or choose another output folder with --out")
                }
            }
            if !names.contains(markerName) {
                guard names.isEmpty else {
                    throw Diagnostic("\(path) holds files that tomo did not write: move them away or choose another output folder with --out (tomo manages its output folder as a whole)")
                }
                // An empty folder becomes tomo's; another build may make it so first.
                guard try createMarker(markerPath) else { continue }
            }
            if let locked = try lockMarker(markerPath, waiting: onceWaiting) { return (locked, madeFolder) }
        }
    }

    /// Whether the folder holds nothing but the marker, read only as far as the first other name
    /// (an output of 100,000 pages is not listed for it); an error when it cannot be read.
    private static func holdsOnlyTheMarker(_ path: String) throws(Diagnostic) -> Bool {
        guard let folder = opendir(path) else {
            throw Diagnostic("cannot read the output folder \(path) (\(String(cString: strerror(errno)))): make it readable (chmod u+rx) or choose another output folder with --out")
        }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." && name != markerName { return false }
        }
        return true
    }

    private static func makeFolder(_ folder: URL) throws(Diagnostic) {
        do {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Diagnostic("cannot create the output folder \(folder.path): \(Diagnostic.reason(of: error))")
        }
        if mkdir(folder.path, 0o755) == 0 { return }
        let code = errno
        // Something is at the name that the folder was not found at: a link to nothing (listing
        // it again would find nothing again, for ever), or what another build just made there.
        if code == EEXIST, let target = FolderEntries.danglingLinkTarget(folder.path) {
            throw Diagnostic("the output folder \(folder.path) is a symbolic link to \(target), which does not exist: create that folder, or remove the link, or choose another output folder with --out")
        }
        guard code == EEXIST else {
            throw Diagnostic("cannot create the output folder \(folder.path): \(String(cString: strerror(code)))")
        }
    }

    /// Writes the marker into an empty folder; false when another build wrote one first.
    private static func createMarker(_ path: String) throws(Diagnostic) -> Bool {
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if file < 0, errno == EEXIST { return false }
        guard file >= 0 else { throw Diagnostic("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        let failure = Array(markerText.utf8).withUnsafeBytes { buffer -> Int32? in
            Glibc.write(file, buffer.baseAddress, buffer.count) == buffer.count ? nil : errno
        }
        if let failure {
            unlink(path)
            throw Diagnostic("cannot write \(path): \(String(cString: strerror(failure)))")
        }
        return true
    }

    /// The marker's descriptor, locked; nil when the marker was replaced or removed while this
    /// build waited (the folder is claimed again from the start).
    private static func lockMarker(_ path: String, waiting: () -> Void) throws(Diagnostic) -> Int32? {
        var file = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        // A marker that may not be written is still locked (for reading, which a local lock allows).
        if file < 0, errno == EACCES || errno == EROFS { file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        if file < 0, errno == ENOENT { return nil }
        guard file >= 0 else {
            throw Diagnostic("cannot open \(path), the mark of a folder tomo writes (\(String(cString: strerror(errno)))): remove it and build again")
        }
        var status = stat()
        guard fstat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(file)
            throw Diagnostic("\(path) is not the file tomo marks its output with: remove it and build again")
        }
        if !lock(file, blocking: false) {
            waiting()
            guard lock(file, blocking: true) else {
                let failure = Diagnostic("cannot lock the output folder (\(path)): \(String(cString: strerror(errno)))")
                close(file)
                throw failure
            }
        }
        // Still the folder's marker: a build that failed may have removed it while this one waited.
        var now = stat()
        guard lstat(path, &now) == 0, now.st_ino == status.st_ino, now.st_dev == status.st_dev else {
            close(file)
            return nil
        }
        return file
    }

    /// Takes the exclusive lock; false when another process holds it (without `blocking`) or
    /// locking failed.
    private static func lock(_ file: Int32, blocking: Bool) -> Bool {
        while flock(file, LOCK_EX | (blocking ? 0 : LOCK_NB)) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    // MARK: After a killed build

    /// Undoes what a killed build left half done: the files of a folder it was making, or the
    /// `….tomo-new` files it had not renamed into place. Called with the lock held.
    private static func removeWhatAKilledBuildWrote(in path: String) {
        func flagged(_ flag: String) -> Bool {
            var status = stat()
            return lstat(path + "/" + flag, &status) == 0
        }
        if flagged(writingFlags.new) {
            for name in (FolderEntries.list(path, followingLinks: false, includingHidden: true) ?? []).map(\.name) where name != markerName {
                try? FileManager.default.removeItem(atPath: path + "/" + name)
            }
        } else if flagged(writingFlags.update) {
            removePendingFiles(under: path)
        } else {
            return
        }
        for flag in [writingFlags.new, writingFlags.update] { unlink(path + "/" + flag) }
    }

    /// Deletes every `….tomo-new` file under `root`, walking it without following links.
    private static func removePendingFiles(under root: String) {
        // An explicit stack: a deep output must not deepen the call stack.
        var folders = [root]
        while let folder = folders.popLast() {
            for (name, status) in FolderEntries.list(folder, followingLinks: false, includingHidden: true) ?? [] {
                let full = folder + "/" + name
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    folders.append(full)
                } else if name.hasSuffix(OutputFolder.pendingSuffix) {
                    unlink(full)
                }
            }
        }
    }
}
