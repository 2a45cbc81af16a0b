/// For each input, the positions in a plan of the files that read it: what lets a preview rebuild
/// look only at the readers of the inputs an edit changed.
///
/// Kept for the preview's life, so it is flat tables of 32-bit numbers, in two steps: each input
/// to the input lists that name it, each list to the files that hold it. Files share their lists
/// (every page holds `SitePlan.everyPage`, each page of a timeline the keys of everyone it
/// follows), so this is far smaller than a table of every file reading every input: at 10,000
/// users the plan's 467,086 files name an input about twelve million times, and that table was
/// 50 MB for the preview's life and twice that while it was made, the preview's peak.
struct ReaderIndex: Sendable {
    /// The row of each input in `listStarts`.
    private var rows: [InputKey: Int] = [:]
    /// Where each row's lists begin in `lists`; one more entry than rows, the end.
    private var listStarts: [Int] = [0]
    /// Every row's lists (numbers of `fileStarts`' rows), ascending without repeats.
    private var lists: [Int32] = []
    /// Where each list's files begin in `files`; one more entry than lists, the end.
    private var fileStarts: [Int] = [0]
    /// Every list's files (positions in the plan), ascending; a file holding a list twice is
    /// there twice.
    private var files: [Int32] = []

    /// The index of `plan`. Nil for a plan of more files or lists than 32 bits count.
    init?(of plan: [PlannedFile]) {
        guard plan.count <= Int(Int32.max) else { return nil }
        // Each list once, known by its storage: a list shared by many files is one array.
        var listNumbers: [UnsafeRawPointer: Int32] = [:]
        var distinct: [[InputKey]] = []
        var listOfPair: [Int32] = []
        var fileOfPair: [Int32] = []
        for (position, file) in plan.enumerated() {
            for list in file.inputLists {
                guard let storage = list.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }) else { continue }
                let number: Int32
                if let known = listNumbers[storage] {
                    number = known
                } else {
                    guard distinct.count < Int(Int32.max) else { return nil }
                    number = Int32(distinct.count)
                    listNumbers[storage] = number
                    distinct.append(list)
                }
                listOfPair.append(number)
                fileOfPair.append(Int32(position))
            }
        }
        listNumbers = [:]
        (fileStarts, files) = Self.grouped(fileOfPair, by: listOfPair, groups: distinct.count)
        fileOfPair = []
        listOfPair = []
        // Then each list under every input it names, once.
        var rowOfPair: [Int32] = []
        var listOfRowPair: [Int32] = []
        var listRows: [Int32] = []
        for (number, list) in distinct.enumerated() {
            listRows.removeAll(keepingCapacity: true)
            for key in list {
                if let known = rows[key] {
                    listRows.append(Int32(known))
                } else {
                    guard rows.count < Int(Int32.max) else { return nil }
                    listRows.append(Int32(rows.count))
                    rows[key] = rows.count
                }
            }
            listRows.sort()
            for (index, row) in listRows.enumerated() where index == 0 || listRows[index - 1] != row {
                rowOfPair.append(row)
                listOfRowPair.append(Int32(number))
            }
        }
        (listStarts, lists) = Self.grouped(listOfRowPair, by: rowOfPair, groups: rows.count)
    }

    /// The positions of the files that read `key`, ascending, each once (none when no file
    /// reads it).
    func readers(of key: InputKey) -> [Int32] {
        guard let row = rows[key] else { return [] }
        let keyLists = lists[listStarts[row]..<listStarts[row + 1]]
        var readers: [Int32] = []
        for list in keyLists.lazy.map(Int.init) { readers += files[fileStarts[list]..<fileStarts[list + 1]] }
        // One list's files are in order already; a file may hold a list twice, or two of them.
        if keyLists.count > 1 { readers.sort() }
        var kept = 0
        for index in readers.indices where index == 0 || readers[index] != readers[kept - 1] {
            readers[kept] = readers[index]
            kept += 1
        }
        readers.removeLast(readers.count - kept)
        return readers
    }

    /// `values` sorted into `groups` by the group of each (a counting sort, which keeps their
    /// order within a group): where each group begins, and the values.
    private static func grouped(_ values: [Int32], by group: [Int32], groups: Int) -> (starts: [Int], values: [Int32]) {
        var starts = [Int](repeating: 0, count: groups + 1)
        for number in group { starts[Int(number) + 1] += 1 }
        for index in 0..<groups { starts[index + 1] += starts[index] }
        var next = Array(starts.dropLast())
        var sorted = [Int32](repeating: 0, count: values.count)
        for (value, number) in zip(values, group) {
            sorted[next[Int(number)]] = value
            next[Int(number)] += 1
        }
        return (starts, sorted)
    }
}
