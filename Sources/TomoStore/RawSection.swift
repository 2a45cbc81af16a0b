/// A big sorted section kept as the file's bytes, for commands that look at or change a record
/// or two: the accepted follows for follow, unfollow, accept, decline and block; the likes for
/// like and unlike. Decoding 200,000 records into strings and encoding them again is most of
/// what such a command would otherwise cost; instead the records are indexed while their syntax
/// is checked, looked up by binary search, and copied to the new file in long runs.
///
/// Used only when the section is in the order tomo writes it (sorted by key, no duplicates,
/// ASCII strings without escapes); any other section is decoded as usual.
struct RawSection<Record: RawRecord>: Sendable, Hashable {
    /// The whole store file (shared with the reader, not copied).
    let file: [UInt8]
    /// Where each record starts and ends in `file`, in key order.
    let starts: [Int]
    let ends: [Int]
    /// True when records are separated by exactly `,\n    ` (as tomo writes them), so runs of
    /// records can be copied in one piece.
    let canonicalSpacing: Bool
    /// Records deleted or replaced by this command.
    private(set) var removed: Set<Int> = []

    init(file: [UInt8], starts: [Int], ends: [Int], canonicalSpacing: Bool) {
        self.file = file
        self.starts = starts
        self.ends = ends
        self.canonicalSpacing = canonicalSpacing
    }

    /// The record for `key`, unless this command removed it.
    func record(for key: Record.Key) -> Record? {
        guard let index = index(of: key), !removed.contains(index) else { return nil }
        return Record(strings: strings(at: index))
    }

    /// Removes the record for `key`; true when there was one.
    mutating func remove(_ key: Record.Key) -> Bool {
        guard let index = index(of: key), !removed.contains(index) else { return false }
        removed.insert(index)
        return true
    }

    /// Index of the first record whose key is not less than `key`.
    func insertionIndex(of key: Record.Key) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Record.key(strings: strings(at: middle)) < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func index(of key: Record.Key) -> Int? {
        let index = insertionIndex(of: key)
        return index < starts.count && Record.key(strings: strings(at: index)) == key ? index : nil
    }

    /// The strings of a record the decoder already checked (ASCII, no escapes), in order.
    fileprivate func strings(at index: Int) -> [String] {
        var fields: [String] = []
        var position = starts[index]
        while position < ends[index] {
            if file[position] == UInt8(ascii: "\"") {
                let start = position + 1
                position = start
                while file[position] != UInt8(ascii: "\"") { position += 1 }
                fields.append(String(decoding: file[start..<position], as: UTF8.self))
            }
            position += 1
        }
        return fields
    }

    /// Appends records `range` (skipping removed ones) to `out`, each after `",\n    "` or, for
    /// the section's first record, `"\n    "`; `isFirst` tracks which.
    func appendRecords<Sink: ByteSink>(_ range: Range<Int>, to out: inout ChunkedOutput<Sink>, isFirst: inout Bool) throws(Sink.Failure) {
        let cuts = removed.sorted()
        var cut = 0
        var index = range.lowerBound
        while index < range.upperBound {
            while cut < cuts.count, cuts[cut] < index { cut += 1 }
            if cut < cuts.count, cuts[cut] == index {
                index += 1
                continue
            }
            // The run of kept records up to the next removed one, copied in one piece when
            // spaced as tomo writes them.
            let runEnd = cut < cuts.count ? min(cuts[cut], range.upperBound) : range.upperBound
            let last = canonicalSpacing ? runEnd - 1 : index
            out.buffer.append(contentsOf: isFirst ? "\n    ".utf8 : ",\n    ".utf8)
            isFirst = false
            try out.writeDirectly(file[starts[index]..<ends[last]])
            index = last + 1
        }
    }
}

/// A record a `RawSection` can hold: made from its strings in file order.
protocol RawRecord: KeyedRecord, Sendable, Hashable where Key: Sendable {
    init(strings: [String])
    static func key(strings: [String]) -> Key
}

/// `["from","to","created"]` in the follows section: accepted follows.
extension Follow: RawRecord {
    init(strings: [String]) {
        self.init(from: strings[0], to: strings[1], status: .accepted, created: strings[2])
    }

    static func key(strings: [String]) -> RecordPair { RecordPair(first: strings[0], second: strings[1]) }
}

extension RawSection where Record == PostLikes {
    /// The ids of the posts liked here that start with `prefix` (not removed by this command).
    func posts(withPrefix prefix: String) -> [String] {
        var posts: [String] = []
        var index = insertionIndex(of: prefix)
        while index < starts.count {
            let post = Record.key(strings: strings(at: index))
            guard post.hasPrefix(prefix) else { break }
            if !removed.contains(index) { posts.append(post) }
            index += 1
        }
        return posts
    }
}

/// `"handle/slug": ["liker", …]` in the likes section.
extension PostLikes: RawRecord {
    init(strings: [String]) {
        // Likers as the store keeps them: sorted, each once (a hand edit may have broken that).
        self.init(post: strings[0], users: Array(Set(strings.dropFirst())).sorted())
    }

    static func key(strings: [String]) -> String { strings[0] }
}
