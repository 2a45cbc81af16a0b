/// Rows of cells in aligned columns under a header, for a terminal: each column as wide as its
/// widest cell in display columns (`DisplayWidth`: CJK and emoji take two), two spaces
/// between columns, numbers right-aligned.
enum ConsoleTable {
    /// One line per row, the header first; `numeric` holds the indexes of right-aligned columns.
    static func lines(header: [String], rows: [[ConsoleText]], numeric: Set<Int> = []) -> [ConsoleText] {
        // Widths of the cells as printed: escaped, without colours.
        let widths = header.indices.map { column in
            ([DisplayWidth.of(header[column])] + rows.map { DisplayWidth.of($0[column].description) }).max() ?? 0
        }
        func line(_ cells: [ConsoleText]) -> ConsoleText {
            var text: ConsoleText = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(cell.description)))
                let isLast = column == cells.count - 1
                if column > 0 { text = "\(text)  " }
                if numeric.contains(column) {
                    text = "\(text)\(ConsoleText(padding))\(cell)"
                } else {
                    text = isLast ? "\(text)\(cell)" : "\(text)\(cell)\(ConsoleText(padding))"
                }
            }
            return text
        }
        return [line(header.map { ConsoleText($0) })] + rows.map(line)
    }
}
