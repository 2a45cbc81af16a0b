import CSystem
import Foundation
import Synchronization
import TomoCore

/// A build's output folder, replaced all at once.
///
/// Files are written into a fresh staging folder beside the output; only `commit()` swaps it in
/// (an atomic exchange of the two folders), so a failed build leaves the previous output exactly
/// as it was. A file whose bytes did not change is hard-linked from the previous output instead of
/// rewritten, so its mtime stays and uploads that compare dates skip it.
public final class OutputFolder: Sendable {
    /// Marks a folder as tomo's output: a non-empty folder without it is never replaced.
    public static let markerName = ".tomo-output"

    public let destination: URL
    let staging: URL
    private let previous: URL?
    private let createdFolders = Mutex<Set<String>>([""])
    private let tally = Mutex(Tally())

    public struct Tally: Sendable, Equatable {
        /// Files with new or changed bytes.
        public var written = 0
        /// Files carried over from the previous output unchanged.
        public var unchanged = 0
        public var total: Int { written + unchanged }
    }

    public init(destination: URL) throws(Diagnostic) {
        self.destination = destination.standardizedFileURL
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: self.destination.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Diagnostic("\(destination.path) is a file, not a folder: choose another output folder with --out")
            }
            let entries = (try? fileManager.contentsOfDirectory(atPath: self.destination.path)) ?? []
            if !entries.isEmpty, !entries.contains(Self.markerName) {
                throw Diagnostic("\(destination.path) holds files that tomo did not write: move them away or choose another output folder with --out (tomo replaces its output folder as a whole)")
            }
            previous = entries.isEmpty ? nil : self.destination
        } else {
            previous = nil
        }
        let parent = self.destination.deletingLastPathComponent()
        let name = self.destination.lastPathComponent
        Self.removeAbandonedStagingFolders(in: parent, for: name)
        staging = parent.appendingPathComponent(".\(name).tomo-staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw Diagnostic("cannot create the output folder beside \(destination.path): \(error.localizedDescription)")
        }
        try write(Array("This folder is written by tomo build and replaced as a whole on each build.\n".utf8), to: Self.markerName)
        // The marker is bookkeeping, not a page: counts start after it.
        tally.withLock { $0 = Tally() }
    }

    /// How many files were written and carried over so far.
    public var counts: Tally { tally.withLock { $0 } }

    /// Writes `bytes` to `path` (relative, `/`-separated) in the new output. Safe to call from
    /// several threads at once.
    public func write(_ bytes: [UInt8], to path: String) throws(Diagnostic) {
        if let problem = Self.pathProblem(path) {
            throw Diagnostic("refusing to write \"\(path)\": \(problem)")
        }
        try makeParentFolders(of: path)
        let target = staging.path + "/" + path
        if let previous {
            let old = previous.path + "/" + path
            if Self.file(at: old, holds: bytes), link(old, target) == 0 {
                tally.withLock { $0.unchanged += 1 }
                return
            }
        }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Diagnostic("cannot create \(path) in the output: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
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
        if let failure {
            throw Diagnostic("cannot write \(path) in the output: \(String(cString: strerror(failure)))")
        }
        tally.withLock { $0.written += 1 }
    }

    /// Puts the file at `source` (an immutable file, such as a cached thumbnail) at `path` by hard
    /// link, so no bytes are copied and an unchanged file keeps its identity and mtime; copies
    /// when a link is impossible (another file system).
    public func linkFile(from source: URL, to path: String) throws(Diagnostic) {
        if let problem = Self.pathProblem(path) {
            throw Diagnostic("refusing to write \"\(path)\": \(problem)")
        }
        try makeParentFolders(of: path)
        let target = staging.path + "/" + path
        if link(source.path, target) == 0 {
            let unchanged = previous.map { Self.sameFile(source.path, $0.path + "/" + path) } ?? false
            tally.withLock { unchanged ? ($0.unchanged += 1) : ($0.written += 1) }
            return
        }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw Diagnostic("cannot read \(source.path) to publish it as \(path)")
        }
        try write(Array(data), to: path)
    }

    private static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev
    }

    /// Swaps the new output in for the old one; the old one is then deleted.
    public func commit() throws(Diagnostic) {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: destination.path) {
            if tomo_exchange_paths(staging.path, destination.path) != 0 {
                // File systems without an atomic exchange: two renames, the gap as short as can be.
                let aside = staging.path + "-previous"
                guard rename(destination.path, aside) == 0 else {
                    throw Diagnostic("cannot replace \(destination.path): \(String(cString: strerror(errno)))")
                }
                guard rename(staging.path, destination.path) == 0 else {
                    let reason = String(cString: strerror(errno))
                    _ = rename(aside, destination.path)
                    throw Diagnostic("cannot replace \(destination.path): \(reason)")
                }
                try? fileManager.removeItem(atPath: aside)
                return
            }
            // After the exchange the staging name holds the previous output.
            try? fileManager.removeItem(at: staging)
        } else {
            guard rename(staging.path, destination.path) == 0 else {
                throw Diagnostic("cannot create \(destination.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Throws the new output away; the previous output stays as it was.
    public func discard() {
        try? FileManager.default.removeItem(at: staging)
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
        return nil
    }

    private func makeParentFolders(of path: String) throws(Diagnostic) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        if createdFolders.withLock({ $0.contains(folder) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: staging.path + "/" + folder, withIntermediateDirectories: true)
        } catch {
            throw Diagnostic("cannot create folder \(folder) in the output: \(error.localizedDescription)")
        }
        createdFolders.withLock { _ = $0.insert(folder) }
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

    /// Staging folders left by a build that was killed: their process is gone.
    private static func removeAbandonedStagingFolders(in parent: URL, for name: String) {
        let prefix = ".\(name).tomo-staging-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let pidText = entry.dropFirst(prefix.count).prefix(while: { $0.isNumber })
            guard let pid = pid_t(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: parent.appendingPathComponent(entry).path)
        }
    }
}
