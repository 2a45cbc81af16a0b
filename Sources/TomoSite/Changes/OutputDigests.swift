import Glibc
import TomoCore

/// The digest of every file of an output, by path: what a build keeps for the next one
/// (`BuildState.outputs`), what `OutputFolder` brings up to date as it writes, and what the
/// preview knows of the files it serves.
///
/// At 10,000 users an output has 467,086 files and an edit changes a few hundred. The digests a
/// kept state read stay in the table its file holds (`Table`: sorted by a hash of the path,
/// looked up by binary search) and only what changed since is a dictionary: making a dictionary
/// of every kept path took a third of a second of a core and 100 MB in each build after an
/// edit, which looks up a few hundred of them.
struct OutputDigests: Sendable {
    /// The digests as a kept state's file lists them.
    private var table = Table.empty
    /// What differs from `table`: a digest set, or gone (nil).
    private var changes: [String: FileDigest?] = [:]
    /// How many paths have a digest.
    private(set) var count = 0

    init() {}

    /// The digests of `digests`, each one as a change (nothing is kept in a table).
    init(_ digests: [String: FileDigest]) {
        changes.reserveCapacity(digests.count)
        for (path, digest) in digests { changes[path] = .some(digest) }
        count = digests.count
    }

    /// The digests of a table read from a kept state's file.
    init(table: Table) {
        self.table = table
        count = table.count
    }

    subscript(path: String) -> FileDigest? {
        get {
            if let change = changes[path] { return change }
            return table.digest(of: path)
        }
        set {
            let kept = table.digest(of: path)
            let before = changes[path] ?? kept
            if before == nil, newValue != nil { count += 1 }
            if before != nil, newValue == nil { count -= 1 }
            // A change back to the table's digest is no change.
            if newValue == kept { changes[path] = nil } else { changes[path] = .some(newValue) }
        }
    }

    /// Takes `path` out; its digest before, nil when it had none.
    @discardableResult
    mutating func removeValue(forKey path: String) -> FileDigest? {
        let before = self[path]
        if before != nil { self[path] = nil }
        return before
    }

    /// Every path with its digest, in no particular order.
    func forEach(_ body: (String, FileDigest) -> Void) {
        table.forEach { path, digest in
            if changes[path] == nil { body(path, digest) }
        }
        for case let (path, digest?) in changes { body(path, digest) }
    }

    /// Every path that has a digest, as its UTF-8 bytes, in no particular order: with no change
    /// since the table was read, the table's own bytes, without a string made for each.
    func forEachPath(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard changes.isEmpty else {
            forEach { path, _ in
                var path = path
                path.withUTF8(body)
            }
            return
        }
        table.forEachEntry { _, path, _ in body(path) }
    }

    /// Every path that has a digest.
    var paths: [String] {
        var paths: [String] = []
        paths.reserveCapacity(count)
        forEach { path, _ in paths.append(path) }
        return paths
    }

    /// Writes the count and every entry in the table's order, what `Table(reading:)` reads; false
    /// (nothing written) when a path has a line break, which the text files beside it cannot
    /// hold. The table's entries are copied as they are; only the changes are hashed and sorted
    /// (after a full build, all 467,086 files at 10,000 users).
    func write(into writer: inout ByteWriter) -> Bool {
        guard let changed = ChangedPaths(changes) else { return false }
        var entries = ByteWriter(capacity: table.byteCount + changed.byteCount + changes.count * 24)
        let written = changed.inTableOrder { changes in
            var written = 0
            var next = 0
            // The changes that come before `limit` in the table's order (all of them without one).
            func writeChanges(before limit: (hash: UInt64, path: UnsafeBufferPointer<UInt8>)?) {
                while next < changes.count {
                    let change = changes[next]
                    if let limit, Table.order(change.hash, change.path, limit.hash, limit.path) >= 0 { return }
                    if let digest = change.digest {
                        Table.writeEntry(path: change.path, digest: digest, into: &entries)
                        written += 1
                    }
                    next += 1
                }
            }
            table.forEachEntry { hash, keptPath, digest in
                writeChanges(before: (hash, keptPath))
                // A kept entry that was changed is written (or not) by the change.
                if next < changes.count, Table.order(changes[next].hash, changes[next].path, hash, keptPath) == 0 { return }
                Table.writeEntry(path: keptPath, digest: digest, into: &entries)
                written += 1
            }
            writeChanges(before: nil)
            return written
        }
        writer.write(UInt64(written))
        writer.append(entries.bytes)
        return true
    }

    /// The changed paths' bytes in one buffer, each with its hash and digest (nil: gone). Each
    /// path is visited once, its bytes hashed, checked and copied: the strings are scattered over
    /// the heap, and every visit to one is a cache miss (visiting each four times took a quarter
    /// of a second after a full build).
    private struct ChangedPaths {
        private var bytes: [UInt8] = []
        private var starts: [Int] = []
        private var hashes: [UInt64] = []
        private var digests: [FileDigest?] = []

        var byteCount: Int { bytes.count }

        /// Nil when a path that has a digest has a line break.
        init?(_ changes: [String: FileDigest?]) {
            bytes.reserveCapacity(changes.count * 48)
            starts.reserveCapacity(changes.count + 1)
            hashes.reserveCapacity(changes.count)
            digests.reserveCapacity(changes.count)
            var lineBreak = false
            for (path, digest) in changes {
                var path = path
                path.withUTF8 { pathBytes in
                    if digest != nil, let base = pathBytes.baseAddress, memchr(base, 0x0A, pathBytes.count) != nil { lineBreak = true }
                    hashes.append(Table.hash(pathBytes))
                    starts.append(bytes.count)
                    bytes.append(contentsOf: pathBytes)
                }
                digests.append(digest)
            }
            guard !lineBreak else { return nil }
            starts.append(bytes.count)
        }

        /// Runs `body` with the changes sorted in the table's order.
        func inTableOrder<Result>(_ body: ([(hash: UInt64, path: UnsafeBufferPointer<UInt8>, digest: FileDigest?)]) -> Result) -> Result {
            bytes.withUnsafeBufferPointer { buffer in
                let sorted = hashes.indices.map { index in
                    (hash: hashes[index], path: UnsafeBufferPointer(rebasing: buffer[starts[index]..<starts[index + 1]]), digest: digests[index])
                }.sorted { Table.order($0.hash, $0.path, $1.hash, $1.path) < 0 }
                return body(sorted)
            }
        }
    }

    /// Kept digests as their file holds them: each entry a path and its digest, in the order of
    /// a hash of the paths (and of the paths' bytes for equal hashes).
    final class Table: Sendable {
        private struct Entry {
            var hash: UInt64
            var pathStart: Int
            var pathCount: Int
            var digest: FileDigest
        }

        private let bytes: [UInt8]
        private let entries: [Entry]
        /// Where the entries of each leading-bits value of the hash begin (`buckets[b]..<
        /// buckets[b + 1]`), with about one entry per bucket: the hashes are uniform, so a
        /// lookup reads one or two entries where a binary search over 467,086 read nineteen,
        /// each a cache miss (a build whose plan gained a file looks up every planned path).
        private let buckets: [Int32]
        /// How far a hash is shifted right to give its bucket.
        private let bucketShift: UInt64

        static let empty = Table(bytes: [], entries: [])

        private init(bytes: [UInt8], entries: [Entry]) {
            self.bytes = bytes
            self.entries = entries
            (buckets, bucketShift) = Self.buckets(of: entries)
        }

        /// The buckets of `entries` (in the table's order): 2^k of them for the smallest k with
        /// 2^k at least the count.
        private static func buckets(of entries: [Entry]) -> ([Int32], UInt64) {
            var bits: UInt64 = 0
            while (1 << bits) < entries.count { bits += 1 }
            let shift = 64 - bits
            var buckets = [Int32](repeating: Int32(entries.count), count: (1 << bits) + 1)
            var next = 0
            for (index, entry) in entries.enumerated() {
                let bucket = Int(entry.hash >> shift)
                while next <= bucket {
                    buckets[next] = Int32(index)
                    next += 1
                }
            }
            return (buckets, shift)
        }

        var count: Int { entries.count }
        /// About what the entries take when written again.
        var byteCount: Int { entries.count * 40 + bytes.count / 2 }

        /// Reads the entries `write(into:)` wrote from `reader`'s place to the end; nil when they
        /// do not parse, do not end at the end or are out of order.
        init?(reading reader: inout ByteReader, in bytes: [UInt8]) {
            var entries: [Entry] = []
            do {
                let count = try reader.count()
                entries.reserveCapacity(count)
                try bytes.withUnsafeBufferPointer { buffer throws(ByteReader.Malformed) in
                    for _ in 0..<count {
                        let pathCount = try reader.count()
                        let pathStart = reader.offset
                        try reader.skip(pathCount)
                        let digest = FileDigest(hash: try reader.uint64(), size: try reader.int())
                        // Hashed here, not read: a table another tomo wrote with another hash is
                        // then out of order, and not a table, instead of one whose paths are
                        // never found.
                        let path = UnsafeBufferPointer(rebasing: buffer[pathStart..<pathStart + pathCount])
                        entries.append(Entry(hash: Self.hash(path), pathStart: pathStart, pathCount: pathCount, digest: digest))
                    }
                }
            } catch {
                return nil
            }
            guard reader.isAtEnd else { return nil }
            let ordered = bytes.withUnsafeBufferPointer { buffer in
                entries.indices.dropFirst().allSatisfy { index in
                    let (before, after) = (entries[index - 1], entries[index])
                    return Self.order(before.hash, Self.path(before, in: buffer), after.hash, Self.path(after, in: buffer)) < 0
                }
            }
            guard ordered, entries.count < Int32.max else { return nil }
            self.bytes = bytes
            self.entries = entries
            (buckets, bucketShift) = Self.buckets(of: entries)
        }

        func digest(of path: String) -> FileDigest? {
            guard !entries.isEmpty else { return nil }
            let hash = Self.hash(path)
            let bucket = Int(hash >> bucketShift)
            // Each entry of the hash's bucket until one of the hash has the path.
            var path = path
            return path.withUTF8 { key in
                bytes.withUnsafeBufferPointer { buffer in
                    for index in Int(buckets[bucket])..<Int(buckets[bucket + 1]) where entries[index].hash == hash {
                        if Self.compare(Self.path(entries[index], in: buffer), key) == 0 { return entries[index].digest }
                    }
                    return nil
                }
            }
        }

        func forEach(_ body: (String, FileDigest) -> Void) {
            forEachEntry { _, path, digest in body(String(decoding: path, as: UTF8.self), digest) }
        }

        /// Each entry in order, its path as the bytes the table holds.
        fileprivate func forEachEntry(_ body: (UInt64, UnsafeBufferPointer<UInt8>, FileDigest) -> Void) {
            bytes.withUnsafeBufferPointer { buffer in
                for entry in entries { body(entry.hash, Self.path(entry, in: buffer), entry.digest) }
            }
        }

        static func hash(_ path: String) -> UInt64 {
            var path = path
            return path.withUTF8(hash)
        }

        static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hasher = StableHasher()
            hasher.add(raw: UnsafeRawBufferPointer(bytes))
            return hasher.value
        }

        static func writeEntry(path: UnsafeBufferPointer<UInt8>, digest: FileDigest, into writer: inout ByteWriter) {
            // As `ByteWriter.write(_: String)` writes a string: its length, then its bytes.
            writer.write(UInt64(path.count))
            writer.append(path)
            writer.write(digest.hash)
            writer.write(digest.size)
        }

        private static func path(_ entry: Entry, in buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: buffer[entry.pathStart..<entry.pathStart + entry.pathCount])
        }

        /// The table's order, three-way: by the paths' hashes, then by their bytes.
        static func order(_ firstHash: UInt64, _ first: UnsafeBufferPointer<UInt8>, _ secondHash: UInt64, _ second: UnsafeBufferPointer<UInt8>) -> Int {
            firstHash != secondHash ? (firstHash < secondHash ? -1 : 1) : compare(first, second)
        }

        /// memcmp's order of the bytes, the shorter first when one starts the other.
        private static func compare(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Int {
            let common = min(first.count, second.count)
            if common > 0, let a = first.baseAddress, let b = second.baseAddress {
                let order = memcmp(a, b, common)
                if order != 0 { return Int(order) }
            }
            return first.count == second.count ? 0 : (first.count < second.count ? -1 : 1)
        }
    }
}
