import TomoCore

/// The snapshot an earlier preview recorded (`Manifest`), served from the manifest's bytes
/// until the first build replaces it: a restarted preview serves at once without making a
/// string and a record for each of its files (467,086 at 10,000 users, about 90 MB that stayed
/// alive through the first build, at the preview's peak).
///
/// Each line is found by the hash of its path and compared byte by byte.
struct KeptSnapshot: Sendable {
    private let bytes: [UInt8]
    /// One per line, ordered by the hash of its path (lines of equal hash in manifest order).
    private let lines: [Line]

    private struct Line: Sendable {
        var pathHash: UInt64
        var blob: BlobName
        /// Where the path starts and ends (its line break) in `bytes`.
        var pathStart: UInt32
        var end: UInt32
    }

    /// The snapshot a manifest records, or nil when any line is not what `Manifest.bytes(of:)`
    /// writes (or the manifest is larger than 32-bit offsets reach).
    init?(manifest bytes: [UInt8]) {
        guard bytes.count < Int(UInt32.max), let trailer = Manifest.checkedTrailer(of: bytes) else { return nil }
        let lines = bytes.withUnsafeBufferPointer { buffer -> [Line]? in
            var lines: [Line] = []
            lines.reserveCapacity(min(trailer.count, buffer.count / 20))
            var lineStart = Manifest.firstLine
            while lineStart < trailer.start {
                guard let lineEnd = buffer[lineStart..<trailer.start].firstIndex(of: UInt8(ascii: "\n")),
                      let tab = buffer[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: "\t")),
                      let blob = BlobName(text: UnsafeBufferPointer(rebasing: buffer[lineStart..<tab])) else { return nil }
                let path = UnsafeBufferPointer(rebasing: buffer[(tab + 1)..<lineEnd])
                lines.append(Line(pathHash: Self.hash(path), blob: blob, pathStart: UInt32(tab + 1), end: UInt32(lineEnd)))
                lineStart = lineEnd + 1
            }
            return lines.count == trailer.count ? lines : nil
        }
        guard var lines else { return nil }
        // Stable, so that of two lines naming one path the later one wins, as in a dictionary.
        lines = lines.enumerated().sorted { ($0.element.pathHash, $0.offset) < ($1.element.pathHash, $1.offset) }.map(\.element)
        self.bytes = bytes
        self.lines = lines
    }

    var count: Int { lines.count }

    /// The blob the file at `path` (no leading slash) is served from, or nil when the snapshot
    /// has no such file.
    func blob(at path: String) -> BlobName? {
        var path = path
        return path.withUTF8 { path -> BlobName? in
            let hash = Self.hash(path)
            // The first line of this hash, then the last of them whose path is `path`.
            var low = 0
            var high = lines.count
            while low < high {
                let middle = (low + high) / 2
                if lines[middle].pathHash < hash { low = middle + 1 } else { high = middle }
            }
            var found: Line?
            while low < lines.count, lines[low].pathHash == hash {
                let line = lines[low]
                if bytes[Int(line.pathStart)..<Int(line.end)].elementsEqual(path) { found = line }
                low += 1
            }
            return found?.blob
        }
    }

    /// Every path and its blob (several files may share a blob).
    var entries: some Sequence<(path: String, blob: BlobName)> {
        lines.lazy.map { line in
            (String(decoding: bytes[Int(line.pathStart)..<Int(line.end)], as: UTF8.self), line.blob)
        }
    }

    /// The blob of every file (several times when files share one).
    var blobs: [BlobName] { lines.map(\.blob) }

    private static func hash(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(raw: UnsafeRawBufferPointer(path))
        return hasher.value
    }
}
