import Foundation
import Synchronization
import TomoCore

/// A file's content as the store names it: its hash and length. Two files with the same bytes
/// share one blob; the name is also the file's ETag.
struct BlobName: Hashable, Sendable {
    let hash: UInt64
    let size: Int

    init(of bytes: [UInt8]) {
        var hasher = StableHasher()
        hasher.add(bytes: bytes)
        hash = hasher.value
        size = bytes.count
    }

    private init(hash: UInt64, size: Int) {
        self.hash = hash
        self.size = size
    }

    /// `0123456789abcdef-1f4`: 16 hex digits of hash, the length in hex.
    var text: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text`'s bytes: the manifest writes one per served file after every reload.
    func append(to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((hash >> UInt64(shift)) & 0xf)]) }
            bytes.append(UInt8(ascii: "-"))
            var shift = 60
            let value = UInt64(size)
            while shift > 0, (value >> UInt64(shift)) & 0xf == 0 { shift -= 4 }
            while shift >= 0 {
                bytes.append(digits[Int((value >> UInt64(shift)) & 0xf)])
                shift -= 4
            }
        }
    }

    /// The name `text` gave, or nil for any other text (a damaged manifest, a temporary file).
    init?(text: Substring) {
        let name = text.utf8.withContiguousStorageIfAvailable { Self(text: $0) } ?? Array(text.utf8).withUnsafeBufferPointer { Self(text: $0) }
        guard let name else { return nil }
        self = name
    }

    /// The name these bytes of `text` spell: 16 lowercase hex digits, `-`, the length in
    /// lowercase hex without leading zeros.
    init?(text: UnsafeBufferPointer<UInt8>) {
        guard text.count >= 18, text.count <= 33, text[16] == UInt8(ascii: "-"),
              text.count == 18 || text[17] != UInt8(ascii: "0"),
              let hash = Self.hexadecimal(text[0..<16]), let size = Self.hexadecimal(text[17...]),
              let length = Int(exactly: size) else { return nil }
        self.init(hash: hash, size: length)
    }

    /// The value of lowercase hex digits (at most 16), or nil for any other byte.
    private static func hexadecimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

/// The bytes `tomo serve` serves, on disk and by content (`BlobName`), so they sit in the
/// kernel's page cache instead of the process: a request opens its blob and MHD sends it from
/// the descriptor. A blob is written under a temporary name and renamed into place, and never
/// changed after, so a request that opened one reads it whole even while a rebuild replaces the
/// file that named it (and deletes the blob: an open descriptor outlives the unlink).
///
/// Layout: `blobs/<first two hex digits>/<name>` and, for text files a client asked for
/// compressed, `<name>.gz` beside it; `manifest` (the last published snapshot, see `Manifest`);
/// `lock`, held while a preview uses the folder.
final class BlobStore: Sendable {
    let folder: URL
    /// `folder`'s `blobs` folder.
    private let blobsPath: String
    /// Whether the folder outlives this server (the site's `.tomo-cache/serve/…`): false for a
    /// private temporary folder, removed at `close`.
    let isKept: Bool
    /// The lock held on `folder/lock` while this server uses a kept folder (-1 for a temporary
    /// one); taken anew when the folder is made again after it was deleted.
    private let lockDescriptor: Mutex<Int32>
    private let temporaryNumbers = Atomic<Int>(0)
    /// The gzip forms made so far, by blob (`nil` after a blob is removed); entries exist only
    /// for files a client asked for compressed.
    private let gzipForms = Mutex<[BlobName: GzipForm]>([:])
    /// Blobs no snapshot names, to delete once no request can still open them; a `put` of the
    /// same bytes takes its blob out again.
    private let retired = Mutex<Set<BlobName>>([])
    /// Hears why a file or the manifest could not be written (a full disk), so the person
    /// running the preview learns why pages answer 404 or why the next start builds first.
    private let onProblem: @Sendable (String) -> Void
    /// The writes that failed and were told since the last one of their kind that succeeded:
    /// a full disk is told once, not once per page.
    private let toldFailures = Mutex<Set<StoredKind>>([])
    /// What `isIntactKept` found of the kept blobs asked for so far.
    private let keptChecks = Mutex<[BlobName: Bool]>([:])
    /// Blobs `putLater` stored whose files are not written yet, served from these bytes until
    /// they are (and for as long as they cannot be: a full disk), with their total length.
    private let unwritten = Mutex<(blobs: [BlobName: [UInt8]], byteCount: Int)>(([:], 0))
    /// How many bytes `unwritten` may hold; beyond, `putLater` writes at once.
    static let unwrittenLimit = 64 << 20
    /// Writes what `putLater` stored and deletes retired blobs, off the threads that publish;
    /// set once at `init`.
    private let worker = BlobWorker()

    /// What a write stores: a served file's bytes or the manifest, which fail with different
    /// consequences.
    private enum StoredKind {
        case blob, manifest
    }

    private enum GzipForm {
        case smaller(size: Int)
        /// gzip would not make the file smaller: it is sent as it is.
        case notSmaller
    }

    /// Keeps blobs in `folder`, when given and no other preview holds it; otherwise in a new
    /// temporary folder (then `isKept` is false). `onProblem` hears each write that fails after
    /// one that succeeded.
    init(keptIn folder: URL?, onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.onProblem = onProblem
        if let folder, let lock = try Self.lock(folder) {
            self.folder = folder
            isKept = true
            lockDescriptor = Mutex(lock)
        } else {
            var template = Array((NSTemporaryDirectory() + "/tomo-serve-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                let reason = String(cString: strerror(errno))
                throw Diagnostic("cannot make a folder for the served files in \(NSTemporaryDirectory()): \(reason)")
            }
            self.folder = URL(fileURLWithPath: String(cString: made))
            isKept = false
            lockDescriptor = Mutex(-1)
        }
        blobsPath = self.folder.path + "/blobs"
        if let problem = makeBlobFolders() { throw Diagnostic(problem) }
    }

    /// Makes the blob folders that are not there; the problem when one cannot be made.
    private func makeBlobFolders() -> String? {
        for fan in -1..<256 {
            let path = fan < 0 ? blobsPath : blobsPath + "/" + Self.fanFolders[fan]
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                return "cannot make \(path) for the served files: \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }

    /// Makes the store's folders again after they were deleted while it served (`rm -rf
    /// .tomo-cache`), and takes the lock of a kept folder anew, so that a preview started now
    /// does not share it. Safe to call when nothing is missing.
    func remakeFolders() {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = makeBlobFolders()
        guard isKept else { return }
        let lockPath = folder.path + "/lock"
        lockDescriptor.withLock { held in
            var heldStatus = stat()
            var pathStatus = stat()
            if fstat(held, &heldStatus) == 0, stat(lockPath, &pathStatus) == 0,
               heldStatus.st_dev == pathStatus.st_dev, heldStatus.st_ino == pathStatus.st_ino { return }
            let descriptor = Foundation.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return }
            // Another preview that took the new lock first keeps it; this one still serves.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                Foundation.close(descriptor)
                return
            }
            Foundation.close(held)
            held = descriptor
        }
    }

    /// Whether the blob is gone from the disk though this server stored it (and holds no bytes
    /// of it waiting to be written): its folder was deleted while it served.
    func isMissing(_ name: BlobName) -> Bool {
        guard unwrittenBytes(name) == nil else { return false }
        var status = stat()
        guard stat(path(of: name), &status) != 0 else { return false }
        return errno == ENOENT || errno == ENOTDIR
    }

    /// The open lock of `folder`, or nil when another preview holds it.
    private static func lock(_ folder: URL) throws -> Int32? {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Diagnostic("cannot make \(folder.path) for the served files: \(Diagnostic.reason(of: error))")
        }
        let descriptor = Foundation.open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Diagnostic("cannot open \(folder.path)/lock: \(reason)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            Foundation.close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Lets the folder go: a temporary one is removed, a kept one unlocked for the next preview
    /// (once no blob of this server is being deleted).
    func close() {
        worker.stop()
        // What is still to be written is written now: the manifest names it for the next start.
        for name in unwritten.withLock({ Array($0.blobs.keys) }) { write(name) }
        if isKept {
            Foundation.close(lockDescriptor.withLock { $0 })
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The names of the 256 folders blobs are spread over, `00` to `ff`.
    private static let fanFolders = (0..<256).map { fan in
        let digits = String(fan, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// Made from strings alone: every put, request and deletion asks (467,086 deletions after
    /// a restart on another port at 10,000 users), and going through `URL` each time took a
    /// tenth of the preview's CPU time.
    private func path(of name: BlobName) -> String {
        blobsPath + "/" + Self.fanFolders[Int(name.hash >> 56)] + "/" + name.text
    }

    /// Puts `bytes` in the store (unless a blob with exactly these bytes is there) and names
    /// them; nil when they cannot be written (a full disk): the file is then not served.
    func put(_ bytes: [UInt8]) -> BlobName? {
        let name = BlobName(of: bytes)
        let path = path(of: name)
        retired.withLock { _ = $0.remove(name) }
        if holds(bytes, at: path) { return name }
        return store(bytes, at: path, as: .blob) ? name : nil
    }

    /// `put`, with the file written soon on another thread (`BlobWorker`) and the bytes served
    /// from memory until then: a rebuild goes live without waiting for the disk. (Making a new
    /// file on ext4 without a journal, soon after many were deleted, took most of a 10,000-user
    /// reload's time.) Past `unwrittenLimit` bytes waiting, the file is written at once.
    func putLater(_ bytes: [UInt8]) -> BlobName? {
        let name = BlobName(of: bytes)
        retired.withLock { _ = $0.remove(name) }
        let held = unwritten.withLock { unwritten -> Bool in
            guard unwritten.blobs[name] == nil else { return true }
            guard unwritten.byteCount + bytes.count <= Self.unwrittenLimit else { return false }
            unwritten.blobs[name] = bytes
            unwritten.byteCount += bytes.count
            return true
        }
        guard held else { return put(bytes) }
        worker.add([.write(name)]) { [self] item in perform(item) }
        return name
    }

    /// Runs `body` with no deletion of a retired blob started meanwhile (`BlobWorker`).
    func holdingDeletions<T>(_ body: () throws -> T) rethrows -> T {
        try worker.holdingDeletions(body)
    }

    /// The bytes of a blob `putLater` stored that is not written yet.
    func unwrittenBytes(_ name: BlobName) -> [UInt8]? {
        unwritten.withLock { $0.blobs[name] }
    }

    /// Writes a blob `putLater` stored, unless it was deleted meanwhile; its bytes are let go
    /// once the file holds them (kept, and served, when it cannot be written).
    private func write(_ name: BlobName) {
        guard let bytes = unwrittenBytes(name) else { return }
        let path = path(of: name)
        guard holds(bytes, at: path) || store(bytes, at: path, as: .blob) else { return }
        forgetUnwritten(name)
    }

    private func forgetUnwritten(_ name: BlobName) {
        unwritten.withLock { unwritten in
            if let bytes = unwritten.blobs.removeValue(forKey: name) { unwritten.byteCount -= bytes.count }
        }
    }

    /// Writes `bytes` to `path` (see `write(_:to:)`); a failure is told once until a write of
    /// the same kind succeeds.
    private func store(_ bytes: [UInt8], at path: String, as kind: StoredKind) -> Bool {
        do {
            try write(bytes, to: path)
            toldFailures.withLock { _ = $0.remove(kind) }
            return true
        } catch {
            guard toldFailures.withLock({ $0.insert(kind).inserted }) else { return false }
            // The fix follows from the cause: only a full disk asks for space.
            let fix = error.isFullDisk ? "free some space" : "make \(folder.path) writable"
            switch kind {
            case .blob:
                onProblem("cannot store a served file in \(folder.path): \(error.reason); files that cannot be stored answer 404 until a rebuild stores them (\(fix), then save a file)")
            case .manifest:
                onProblem("cannot record the served files in \(path): \(error.reason); the next tomo serve builds the site before it serves (\(fix))")
            }
            return false
        }
    }

    /// Whether the file at `path` holds exactly `bytes` (a blob a kept preview left may have
    /// been damaged since: it is compared, not trusted).
    private func holds(_ bytes: [UInt8], at path: String) -> Bool {
        guard let stored = read(path, expecting: bytes.count) else { return false }
        return stored == bytes
    }

    /// The whole file at `path` when it is a regular file `size` bytes long. Opened without
    /// blocking, as `RegularFile` opens: a named pipe put in the store is refused, not waited on.
    private func read(_ path: String, expecting size: Int) -> [UInt8]? {
        let descriptor = Foundation.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Foundation.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == size else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < size {
                let count = Foundation.read(descriptor, buffer.baseAddress! + done, size - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Why a write failed: the system's words for its error number.
    private struct WriteFailure: Error {
        let errorNumber: Int32

        init(errorNumber: Int32) {
            self.errorNumber = errorNumber
        }

        var reason: String { String(cString: strerror(errorNumber)) }
        var isFullDisk: Bool { errorNumber == ENOSPC || errorNumber == EDQUOT }
    }

    /// Writes `bytes` under a temporary name beside `path` and renames it there, so no reader
    /// ever sees a part of it.
    private func write(_ bytes: [UInt8], to path: String) throws(WriteFailure) {
        let number = temporaryNumbers.add(1, ordering: .relaxed).newValue
        let temporary = (path as NSString).deletingLastPathComponent + "/.tmp-\(getpid())-\(number)"
        var descriptor = Foundation.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            // The folder was deleted while the preview ran (`rm -rf .tomo-cache`): made again.
            remakeFolders()
            descriptor = Foundation.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw WriteFailure(errorNumber: errno) }
        var done = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while done < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    // A write of 0 bytes on a regular file only happens when the disk is full.
                    failure = count < 0 ? errno : ENOSPC
                    return
                }
                done += count
            }
        }
        if Foundation.close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw WriteFailure(errorNumber: failure)
        }
    }

    /// A descriptor reading the blob from its start (the caller closes it), or nil when it is
    /// gone. Non-blocking, so that a named pipe put in its place never holds a request.
    func open(_ name: BlobName) -> Int32? {
        let descriptor = Foundation.open(path(of: name), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Whether a blob a kept preview left still holds the bytes its name says: read and
    /// compared the first time it is asked for, the answer kept (a damaged or missing blob is
    /// never served; a build that makes the file stores its bytes again).
    func isIntactKept(_ name: BlobName) -> Bool {
        if let known = keptChecks.withLock({ $0[name] }) { return known }
        let intact = read(path(of: name), expecting: name.size).map { BlobName(of: $0) == name } ?? false
        keptChecks.withLock { $0[name] = intact }
        return intact
    }

    /// Marks blobs no snapshot serves any more for `deleteRetired`.
    func retire(_ names: [BlobName]) {
        retired.withLock { $0.formUnion(names) }
    }

    /// Deletes those of `names` still retired (not stored again since) when they are deleted,
    /// with their gzip forms, soon and on another thread (`BlobWorker`).
    func deleteRetired(_ names: [BlobName]) {
        deleteSoon(names.map { .blob($0) })
    }

    /// Hands `items` to the deleting thread.
    private func deleteSoon(_ items: [BlobWorker.Item]) {
        worker.add(items) { [self] item in perform(item) }
    }

    private func perform(_ item: BlobWorker.Item) {
        switch item {
        case .write(let name): write(name)
        case .blob(let name): deleteIfRetired(name)
        case .stray(let path): unlink(path)
        }
    }

    /// Deletes the blob if it is still retired; a `put` of the same bytes waits for one unlink
    /// at most.
    private func deleteIfRetired(_ name: BlobName) {
        retired.withLock { retired in
            guard retired.remove(name) != nil else { return }
            let path = path(of: name)
            unlink(path)
            // One that could not be written is held no more either.
            forgetUnwritten(name)
            // Only a blob a client asked for compressed has a gzip form to delete (one made
            // while the blob was being retired is left for the next start's sweep).
            if gzipForms.withLock({ $0.removeValue(forKey: name) }) != nil { unlink(path + ".gz") }
        }
    }

    /// Deletes everything in the blob folders but `keeping` and what this server stores (blobs,
    /// temporary files and gzip forms a stopped preview left), on the deleting thread: the
    /// folders are only listed here. A blob of the list that a build stores again first is kept
    /// (it is retired, as a blob a publish let go), and a gzip form deleted as it is remade is
    /// made again when it is next asked for (`gzipped`).
    func sweep(keeping: Set<BlobName>) {
        let ownTemporaryFiles = ".tmp-\(getpid())-"
        var stale: [BlobName] = []
        var strays: [BlobWorker.Item] = []
        for fan in 0..<256 {
            let folder = blobsPath + "/" + Self.fanFolders[fan]
            guard let directory = opendir(folder) else { continue }
            while let entry = readdir(directory) {
                let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                // This server's temporary files are blobs being written, not leftovers.
                if entryName == "." || entryName == ".." || entryName.hasPrefix(ownTemporaryFiles) { continue }
                if let name = BlobName(text: Substring(entryName)) {
                    if !keeping.contains(name) { stale.append(name) }
                } else {
                    strays.append(.stray(path: folder + "/" + entryName))
                }
            }
            closedir(directory)
        }
        retire(stale)
        deleteSoon(stale.map { .blob($0) } + strays)
    }

    /// A descriptor of the blob's gzip form (made and stored on the first request for it) and
    /// that form's length; nil when gzip does not make it smaller or the form cannot be made.
    func gzipped(_ name: BlobName) -> (descriptor: Int32, size: Int)? {
        guard let size = gzipSize(of: name) else { return nil }
        let descriptor = Foundation.open(path(of: name) + ".gz", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { return (descriptor, size) }
        // Swept while it was being made: forget it, and send the file uncompressed this time.
        gzipForms.withLock { $0[name] = nil }
        return nil
    }

    /// The length of the blob's gzip form (made on the first call), nil when gzip does not help.
    func gzipSize(of name: BlobName) -> Int? {
        switch gzipForms.withLock({ $0[name] }) {
        case .smaller(let size): return size
        case .notSmaller: return nil
        case nil: break
        }
        guard let bytes = unwrittenBytes(name) ?? read(path(of: name), expecting: name.size) else { return nil }
        var made = GzipForm.notSmaller
        // A gzip form that cannot be written is no problem to tell: the file is sent as it is.
        if let compressed = bytes.withUnsafeBytes({ Gzip.compress($0) }), compressed.count < bytes.count,
           (try? write(compressed, to: path(of: name) + ".gz")) != nil {
            made = .smaller(size: compressed.count)
        }
        gzipForms.withLock { $0[name] = made }
        if case .smaller(let size) = made { return size }
        return nil
    }

    // MARK: The manifest

    private var manifestPath: String { folder.path + "/manifest" }

    /// Records the served snapshot, `Manifest.bytes(of:)`, replacing the last record at once.
    func writeManifest(_ bytes: [UInt8]) {
        _ = store(bytes, at: manifestPath, as: .manifest)
    }

    /// The snapshot the last preview recorded, or nil when there is none or it is damaged.
    func readManifest() -> KeptSnapshot? {
        RegularFile.contents(manifestPath).flatMap(KeptSnapshot.init(manifest:))
    }
}
