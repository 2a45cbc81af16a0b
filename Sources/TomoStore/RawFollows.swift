/// The file's accepted follows kept as the file's bytes, for the commands that look at or
/// change one or two pairs (follow, unfollow, accept, decline, block). Decoding 200,000 records
/// into strings and encoding them again is most of what such a command would otherwise cost;
/// instead the records are indexed while their syntax is checked, looked up by binary search,
/// and copied to the new file in long runs.
///
/// Used only when the section is in the order tomo writes (sorted by follower then followed,
/// no duplicates, plain ASCII handles); any other section is decoded as usual.
struct RawFollows: Sendable, Hashable {
    /// The whole store file (shared with the reader, not copied).
    let file: [UInt8]
    /// Where each record (`["from","to","created"]`) starts and ends in `file`, in key order.
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

    var count: Int { starts.count - removed.count }

    /// The record for `key`, unless this command removed it.
    func record(for key: RecordPair) -> Follow? {
        guard let index = index(of: key), !removed.contains(index) else { return nil }
        return follow(at: index)
    }

    /// Removes the record for `key`; true when there was one.
    mutating func remove(_ key: RecordPair) -> Bool {
        guard let index = index(of: key), !removed.contains(index) else { return false }
        removed.insert(index)
        return true
    }

    /// Index of the first record whose key is not less than `key`.
    func insertionIndex(of key: RecordPair) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if self.key(at: middle) < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func index(of key: RecordPair) -> Int? {
        let index = insertionIndex(of: key)
        return index < starts.count && self.key(at: index) == key ? index : nil
    }

    private func key(at index: Int) -> RecordPair {
        let fields = strings(at: index)
        return RecordPair(first: fields[0], second: fields[1])
    }

    private func follow(at index: Int) -> Follow {
        let fields = strings(at: index)
        return Follow(from: fields[0], to: fields[1], status: .accepted, created: fields[2])
    }

    /// The three strings of a record the decoder already checked: `["a","b","c"]` with any
    /// spacing, ASCII without escapes.
    private func strings(at index: Int) -> [String] {
        var fields: [String] = []
        var position = starts[index]
        while position < ends[index], fields.count < 3 {
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
