import Foundation

/// Reads a whole file that must be a regular file: how every content file, template, the store
/// and the caches are read.
///
/// A FIFO, a device or a socket put where a file belongs would block a plain read forever (a FIFO
/// with no writer) or never end (`/dev/zero`). The file is opened with `O_NONBLOCK`, so even
/// opening a FIFO returns at once, and `fstat` on the open descriptor decides: anything but a
/// regular file is refused with a reason, never read.
public enum RegularFile {
    public enum Failure: Error, Sendable, Equatable {
        /// Nothing at the path (or a part of it is not a folder).
        case missing
        /// Something other than a regular file: "a folder", "a named pipe (FIFO)", …
        case notRegular(kind: String)
        /// open or read failed with this errno (no permission, an I/O error).
        case unreadable(errno: Int32)

        /// Why the file was not read, to follow "cannot read FILE: ".
        public var reason: String {
            switch self {
            case .missing: "there is no such file"
            case .notRegular(let kind): "it is \(kind), not a regular file: replace it with a file"
            case .unreadable(let code) where code == EACCES: "permission denied: make it readable (chmod u+r)"
            case .unreadable(let code): String(cString: strerror(code))
            }
        }
    }

    /// The bytes of the regular file at `path`, read to its end.
    public static func read(_ path: String) -> Result<[UInt8], Failure> {
        withOpenFile(path) { descriptor, size -> Result<[UInt8], Failure> in
            // The size fstat gave and a byte more, then on to the end in case the file grew
            // meanwhile. Read into memory that is not filled with zeros first: the caches are
            // tens of megabytes, and zeros the read writes over are work for nothing.
            var bytes: [UInt8] = []
            var capacity = size + 1
            while true {
                var failure: Int32?
                let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    initialized = 0
                    guard let base = buffer.baseAddress else { return }
                    while initialized < buffer.count {
                        let result = Glibc.read(descriptor, base + initialized, buffer.count - initialized)
                        if result < 0 {
                            if errno == EINTR { continue }
                            failure = errno
                            return
                        }
                        if result == 0 { return }
                        initialized += result
                    }
                }
                if let failure { return .failure(.unreadable(errno: failure)) }
                if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
                if chunk.count < capacity { return .success(bytes) }
                capacity = max(4096, bytes.count)
            }
        }
    }

    /// Why the file at `path` could not be read, or nil when it is a regular file tomo may open
    /// (nothing is read).
    public static func check(_ path: String) -> Failure? {
        if case .failure(let failure) = withOpenFile(path, { _, _ in .success(()) }) { return failure }
        return nil
    }

    /// Opens `path` without blocking, makes sure it is a regular file and calls `body` with the
    /// descriptor and the size.
    private static func withOpenFile<T>(_ path: String, _ body: (Int32, Int) -> Result<T, Failure>) -> Result<T, Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            // A socket cannot be opened at all (ENXIO): told by what it is, as a FIFO is.
            var status = stat()
            if code == ENXIO, stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG { return .failure(.notRegular(kind: kind(of: status.st_mode))) }
            return .failure(code == ENOENT || code == ENOTDIR ? .missing : .unreadable(errno: code))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: kind(of: status.st_mode))) }
        return body(descriptor, max(0, Int(status.st_size)))
    }

    /// The bytes, or nil on any failure: for caches, where an unusable file only means more work.
    public static func contents(_ path: String) -> [UInt8]? {
        try? read(path).get()
    }

    /// Replaces the file at `path` with `bytes` in one rename (a reader sees the old file or the
    /// new one, never half of one); false, and nothing left behind, when it cannot (a full disk).
    /// For caches and kept state, which a failed write only makes older.
    public static func replace(_ path: String, with bytes: [UInt8]) -> Bool {
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)), rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Makes the file at `path` whole or not at all, never over a file that is there: `write`
    /// fills a hidden file beside it (`.NAME.partial`), which is then linked into place and
    /// removed. A disk that fills up half way, or a process killed half way, leaves no partial
    /// file at `path` (a killed one may leave the hidden file, which the next attempt replaces).
    /// What `write` throws is thrown; a name that is taken throws "File exists".
    public static func createWhole(_ path: String, writing write: (URL) throws -> Void) throws {
        try whole(path, replacing: false, writing: write)
    }

    /// `createWhole`, over the file that is at `path` (renamed over it): a reader sees the old
    /// file or the new one, and a kill leaves at most the hidden file, under a name the next
    /// attempt replaces (Foundation's atomic write left `.dat.nosync…` files behind).
    public static func replaceWhole(_ path: String, writing write: (URL) throws -> Void) throws {
        try whole(path, replacing: true, writing: write)
    }

    /// The hidden file `createWhole` and `replaceWhole` fill for `path`: `content/users/.bob.yaml.partial`.
    public static func partialPath(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + "." + name + ".partial"
    }

    private static func whole(_ path: String, replacing: Bool, writing write: (URL) throws -> Void) throws {
        let partial = partialPath(of: path)
        unlink(partial)
        defer { unlink(partial) }
        try write(URL(fileURLWithPath: partial))
        if replacing {
            if rename(partial, path) == 0 { return }
        } else {
            if link(partial, path) == 0 { return }
            // A file system without hard links (FAT): renamed instead, the name was found free.
            if errno == EPERM || errno == EOPNOTSUPP, access(path, F_OK) != 0, rename(partial, path) == 0 { return }
        }
        throw Diagnostic(String(cString: strerror(errno)))
    }

    /// What a file of this mode is, in the words every message uses ("a named pipe (FIFO)",
    /// "a folder", …): the kind `Failure.notRegular` names.
    public static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
