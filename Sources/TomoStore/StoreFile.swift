import Foundation
import TomoCore

/// `content/store.json` on disk. Reads need no lock (the file is only ever replaced by rename,
/// so a reader sees the old or the new store); a change holds an exclusive `flock` on
/// `content/.store.lock` from read to write, so parallel tomo processes lose no update, and the
/// write is temp file + fsync + rename + fsync of the folder, so a crash leaves the old or the
/// new store, never a torn one.
public struct StoreFile: Sendable {
    /// How messages name the store: relative to the site, as a user would open it.
    public static let displayPath = "content/store.json"

    public let site: URL

    public init(site: URL) {
        self.site = site
    }

    var contentFolder: URL { site.appendingPathComponent("content") }
    public var url: URL { contentFolder.appendingPathComponent("store.json") }
    public var lockURL: URL { contentFolder.appendingPathComponent(".store.lock") }
    var temporaryURL: URL { contentFolder.appendingPathComponent(".store.json.tmp") }

    public static let allSections = Set(StoreSection.allCases)

    /// The store as it is now, with the parts in `sections` decoded (users always); a missing
    /// file is an empty store.
    public func read(sections: Set<StoreSection> = allSections) throws(Diagnostic) -> Store {
        try readWithBytes(sections: sections).store
    }

    /// `read(sections:)`, with the bytes it decoded (nil: no file), for messages at a record.
    private func readWithBytes(sections: Set<StoreSection>) throws(Diagnostic) -> (store: Store, bytes: [UInt8]?) {
        guard let bytes = try readBytes() else { return (Store(), nil) }
        return (try StoreDecoder.decode(bytes, file: Self.displayPath, sections: sections), bytes)
    }

    /// The store as a build reads it: `read()`, refused with the errors `tomo check` reports
    /// (`StoreAudit`, each at its line) when a record breaks a rule that no command lets it break:
    /// a relation naming someone not registered or its own user twice, a post id that is none, two
    /// users with one `sequence` (their feeds would give the same ids), a follow across a block, a
    /// `created` that is no store time, a value or a duplicate no command writes. The commands read
    /// it as it is, so that they can repair it.
    public func readForBuild() throws(DiagnosticList) -> Store {
        let store: Store
        do { store = try read() } catch { throw DiagnosticList([error]) }
        guard StoreAudit.hasErrors(store) else { return store }
        let errors: [Diagnostic]
        do {
            errors = try audit(profiles: [:], postExists: { _ in true }).filter { $0.severity == .error }
        } catch {
            throw DiagnosticList([error])
        }
        guard errors.isEmpty else { throw DiagnosticList(errors) }
        return store
    }

    /// The warnings `audit` gives about `store` (this file as `readForBuild` read it), looked for
    /// first without a message made: a build shows them as `tomo check` does.
    public func auditWarnings(of store: Store, profiles: [String: String], postExists: (PostID) -> Bool) throws(Diagnostic) -> [Diagnostic] {
        guard StoreAudit.hasWarnings(store, profiles: profiles, postExists: postExists) else { return [] }
        return try audit(profiles: profiles, postExists: postExists).filter { $0.severity == .warning }
    }

    /// What is wrong between the store and the content (`StoreAudit`), after every record was
    /// read as `read()` reads it; nothing when the site has no store yet.
    public func audit(profiles: [String: String], postExists: (PostID) -> Bool) throws(Diagnostic) -> [Diagnostic] {
        guard let bytes = try readBytes() else { return [] }
        return try StoreAudit.problems(in: bytes, file: Self.displayPath, profiles: profiles, postExists: postExists)
    }

    /// Reads the store under the exclusive lock, lets `change` apply rules, and writes the result
    /// when it changed something. A thrown refusal leaves the file untouched. Only the parts in
    /// `sections` are decoded; the rest is checked and written back byte for byte.
    public func update(sections: Set<StoreSection> = allSections, _ change: (inout Store) throws(Diagnostic) -> Outcome) throws(Diagnostic) -> Outcome {
        let lock = try acquireLock()
        defer { close(lock) }
        // A store is written whole, by a rename over its name: that would replace a link with
        // a file, and the file the link leads to would silently stop being the store.
        if isLink {
            throw Diagnostic("\(Self.displayPath) is a symbolic link, and a command writes the store whole in its place, which would replace the link: put the store itself at \(Self.displayPath)", at: SourceLocation(file: Self.displayPath, line: 1, column: 1))
        }
        var (store, bytes) = try readWithBytes(sections: sections)
        // A pair the file has two records of that say different things is held as one: a write
        // that leaves the pair as it is would drop the other record without a word.
        let dropped = store.recordProblems.compactMap { problem in problem.dropped.map { (problem, $0, $0.current(in: store)) } }
        let outcome = try change(&store)
        if outcome.changed {
            if let bytes, let (problem, _, _) = dropped.first(where: { !$0.1.isChanged(in: store, from: $0.2) }) {
                throw Diagnostic(
                    "\(problem.message); a command writes the store from the records it read, and would drop the other one of this pair: fix the file first (`tomo check` lists every such record), then run the command again",
                    at: SourceLocation(ofByte: problem.offset, in: bytes, file: Self.displayPath)
                )
            }
            store.endBulkInserts()
            try write(store)
        }
        return outcome
    }

    /// Runs `body` holding `content/.files.lock`: the commands that choose and write content
    /// files (`post add` its slug and files, `post rm`, `user add` a profile and the schemas)
    /// take turns, or two would pick one slug and each delete what it took for the other's
    /// leftovers. Store writes inside `body` lock the store as ever (`.store.lock`, another
    /// file: the two locks are always taken in this order, so neither waits for the other).
    public func holdingFilesLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try acquireLock(filesLockURL, named: "content/.files.lock", locking: "the content files")
        defer { close(lock) }
        return try body()
    }

    var filesLockURL: URL { contentFolder.appendingPathComponent(".files.lock") }

    private func acquireLock() throws(Diagnostic) -> Int32 {
        try acquireLock(lockURL, named: "content/.store.lock", locking: "the store")
    }

    private func acquireLock(_ url: URL, named name: String, locking what: String) throws(Diagnostic) -> Int32 {
        // Not through a link: a planted one would have tomo create or lock a file elsewhere.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw Diagnostic("\(name) is a symbolic link, and tomo locks \(what) only with a file of its own: delete the link and run the command again")
            }
            throw systemError("cannot open the lock file \(url.path)")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let failure = systemError("cannot lock \(what)")
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    private func readBytes() throws(Diagnostic) -> [UInt8]? {
        // A store that is a link out of the site is refused like any content file that is.
        if let problem = SiteLinks(site: site.path).problem(onPathOf: Self.displayPath) { throw problem }
        switch RegularFile.read(url.path) {
        case .success(let bytes): return bytes
        case .failure(.missing) where isLink:
            // Not "no store yet": the store is there, where the link leads, and is gone.
            throw Diagnostic("cannot read \(Self.displayPath): it is a symbolic link to a file that does not exist: point it at the store, or put the store itself there", at: SourceLocation(file: Self.displayPath, line: 1, column: 1))
        case .failure(.missing): return nil
        case .failure(let failure):
            throw Diagnostic("cannot read \(Self.displayPath): \(failure.reason)", at: SourceLocation(file: Self.displayPath, line: 1, column: 1))
        }
    }

    /// Whether `content/store.json` is a symbolic link (to anything, or to nothing).
    private var isLink: Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    private func write(_ store: Store) throws(Diagnostic) {
        // Made anew, never opened through what is there (a leftover of a killed write, or a
        // link planted to have the store written over a file elsewhere): the lock is held, so
        // no other tomo is writing it.
        unlink(temporaryURL.path)
        let descriptor = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw systemError("cannot write \(temporaryURL.path)") }
        var sink = FileSink(descriptor: descriptor, path: temporaryURL.path)
        do throws(Diagnostic) {
            try StoreEncoder.encode(store, to: &sink)
            guard fsync(descriptor) == 0 else { throw systemError("cannot write \(temporaryURL.path)") }
        } catch {
            close(descriptor)
            unlink(temporaryURL.path)
            throw error
        }
        close(descriptor)
        guard rename(temporaryURL.path, url.path) == 0 else {
            let failure = systemError("cannot replace \(Self.displayPath)")
            unlink(temporaryURL.path)
            throw failure
        }
        // The rename is durable only once the folder's entry is on disk.
        let folder = open(contentFolder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// `what` failed, with the reason errno gives: taken before `what` is put together, since
    /// making a URL's path can change errno (a folder tomo may not write was reported as "No
    /// such file or directory").
    fileprivate func systemError(_ what: @autoclosure () -> String) -> Diagnostic {
        let code = errno
        let reason = code == EACCES
            ? "permission denied: make the folder content/ writable (chmod u+w content), then run the command again"
            : String(cString: strerror(code))
        return Diagnostic("\(what()): \(reason)")
    }
}

/// The store's temporary file, written piece by piece as the encoder produces it.
private struct FileSink: ByteSink {
    let descriptor: Int32
    let path: String

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(Diagnostic) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, base + written, bytes.count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Diagnostic("cannot write \(path): \(String(cString: strerror(errno)))") }
            written += result
        }
    }
}
