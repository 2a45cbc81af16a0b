/// The store keeps its records in sorted arrays rather than dictionaries: the file is written in
/// that order (stable, diff-friendly), decoding a sorted file is plain appends, and a lookup is a
/// binary search, which keeps one command on a 200,000-follow store fast.
protocol KeyedRecord {
    associatedtype Key: Comparable
    var key: Key { get }
}

/// Two handles (or a handle and a post id), ordered by the first, then the second.
struct RecordPair: Comparable, Hashable {
    var first: String
    var second: String

    static func < (left: RecordPair, right: RecordPair) -> Bool {
        left.first != right.first ? left.first < right.first : left.second < right.second
    }
}

extension User: KeyedRecord { var key: String { handle } }
extension Follow: KeyedRecord { var key: RecordPair { RecordPair(first: from, second: to) } }
extension Block: KeyedRecord { var key: RecordPair { RecordPair(first: from, second: to) } }
extension Pick: KeyedRecord { var key: RecordPair { RecordPair(first: from, second: to) } }
extension PostLikes: KeyedRecord { var key: String { post } }

extension Array where Element: KeyedRecord {
    /// Where `key` is, or where it would go to keep the order.
    func search(_ key: Element.Key) -> (found: Bool, index: Int) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return (low < count && self[low].key == key, low)
    }

    func record(for key: Element.Key) -> Element? {
        let (found, index) = search(key)
        return found ? self[index] : nil
    }

    /// Inserts or replaces the record with `record`'s key.
    mutating func upsert(_ record: Element) {
        let (found, index) = search(record.key)
        if found { self[index] = record } else { insert(record, at: index) }
    }

    /// Removes the record with `key`; true when there was one.
    @discardableResult
    mutating func remove(_ key: Element.Key) -> Bool {
        let (found, index) = search(key)
        if found { remove(at: index) }
        return found
    }

    /// Adds records whose keys are not in the array (nor twice among them), in order: one sort
    /// and one merge instead of an insert into the middle for each.
    mutating func insertNewRecords(_ records: [Element]) {
        let added = records.sorted { $0.key < $1.key }
        var merged: [Element] = []
        merged.reserveCapacity(count + added.count)
        var old = startIndex
        for record in added {
            while old < endIndex, self[old].key < record.key {
                merged.append(self[old])
                old += 1
            }
            merged.append(record)
        }
        merged.append(contentsOf: self[old...])
        self = merged
    }

    /// Sorts by key and keeps the last of duplicate keys (a hand-edited file may be out of order).
    /// Returns each record left out for a later one of its key, with the one kept and where that
    /// was in the array as it was.
    @discardableResult
    mutating func normalizeOrder() -> [(kept: Element, keptAt: Int, leftOut: Element)] {
        var isSorted = true
        for index in indices.dropFirst() where !(self[index - 1].key < self[index].key) {
            isSorted = false
            break
        }
        if isSorted { return [] }
        let sorted = enumerated().sorted { $0.element.key != $1.element.key ? $0.element.key < $1.element.key : $0.offset < $1.offset }
        var result: [Element] = []
        var leftOut: [(kept: Element, keptAt: Int, leftOut: Element)] = []
        result.reserveCapacity(sorted.count)
        for (position, element) in sorted {
            if let last = result.last, last.key == element.key {
                leftOut.append((element, position, last))
                result[result.count - 1] = element
            } else {
                result.append(element)
            }
        }
        self = result
        return leftOut
    }
}

extension Array where Element == String {
    /// Binary search in a sorted array of strings.
    func sortedSearch(_ value: String) -> (found: Bool, index: Int) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return (low < count && self[low] == value, low)
    }

    /// Inserts `value` in order; false when it was already there.
    @discardableResult
    mutating func sortedInsert(_ value: String) -> Bool {
        let (found, index) = sortedSearch(value)
        if !found { insert(value, at: index) }
        return !found
    }

    /// Removes `value`; false when it was not there.
    @discardableResult
    mutating func sortedRemove(_ value: String) -> Bool {
        let (found, index) = sortedSearch(value)
        if found { remove(at: index) }
        return found
    }
}
