/// For each input, the positions in a plan of the files that read it: what lets a preview rebuild
/// look only at the readers of the inputs an edit changed.
///
/// Kept for the preview's life, so it is one flat table of 32-bit positions with a start per
/// input, not an array per input: at 10,000 users the plan has 467,086 files reading a few
/// hundred thousand inputs, and an array per input (its own allocation, grown by doubling) came
/// to 100 MB of the preview's peak.
struct ReaderIndex: Sendable {
    /// The row of each input in `starts`.
    private var rows: [InputKey: Int] = [:]
    /// Where each row's positions begin in `positions`; one more entry than rows, the end.
    private var starts: [Int] = [0]
    /// Every row's positions, row after row, each row ascending without repeats.
    private var positions: [Int32] = []

    /// The index of `plan`, in which a file appears once per input it reads however often it
    /// names it. Nil for a plan of more files or inputs than 32 bits count.
    init?(of plan: [PlannedFile]) {
        guard plan.count <= Int(Int32.max) else { return nil }
        // First each file's rows, in plan order; then the positions sorted into rows by counting.
        var fileRows: [Int32] = []
        var rowsPerFile: [Int] = []
        rowsPerFile.reserveCapacity(plan.count)
        var counts: [Int] = []
        for file in plan {
            let first = fileRows.count
            for key in file.inputs {
                let row: Int
                if let known = rows[key] {
                    row = known
                } else {
                    row = counts.count
                    guard row < Int(Int32.max) else { return nil }
                    rows[key] = row
                    counts.append(0)
                }
                fileRows.append(Int32(row))
            }
            // Sorted, then each row once.
            fileRows[first...].sort()
            var kept = first
            for index in first..<fileRows.count where index == first || fileRows[index] != fileRows[kept - 1] {
                fileRows[kept] = fileRows[index]
                counts[Int(fileRows[kept])] += 1
                kept += 1
            }
            fileRows.removeLast(fileRows.count - kept)
            rowsPerFile.append(kept - first)
        }
        starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for count in counts { starts.append(starts[starts.count - 1] + count) }
        var next = Array(starts.dropLast())
        positions = [Int32](repeating: 0, count: fileRows.count)
        var cursor = 0
        for (position, rowCount) in rowsPerFile.enumerated() {
            for row in fileRows[cursor..<cursor + rowCount].lazy.map(Int.init) {
                positions[next[row]] = Int32(position)
                next[row] += 1
            }
            cursor += rowCount
        }
    }

    /// The positions of the files that read `key`, ascending (none when no file reads it).
    func readers(of key: InputKey) -> ArraySlice<Int32> {
        guard let row = rows[key] else { return [] }
        return positions[starts[row]..<starts[row + 1]]
    }
}
