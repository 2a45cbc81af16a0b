/// The offset of every line's first byte in a text, so that a byte offset becomes
/// `file:line:column` by a binary search rather than a walk from the start: the store audit
/// places thousands of problems in a 20 MB file. Lines end at line feeds; columns count
/// characters, as editors do (the continuation bytes of a UTF-8 character count with its first).
/// The one place every reader (JSON, YAML, the store, templates) turns an offset into a place.
public struct LineStarts: Sendable {
    private let starts: [Int]

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var starts = [0]
        for index in bytes.indices where bytes[index] == 0x0A { starts.append(index + 1) }
        self.starts = starts
    }

    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { LineStarts($0) }
    }

    /// The 1-based line and column of the byte at `offset` of `bytes` (the bytes this was made
    /// from); an offset past the end is the end.
    public func location(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        let offset = min(max(offset, 0), bytes.count)
        // The last line start at or before the offset.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = low + (high - low + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for index in starts[low]..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(file: file, line: low + 1, column: column)
    }

    public func location(ofByte offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        bytes.withUnsafeBufferPointer { location(ofByte: offset, in: $0, file: file) }
    }
}

extension SourceLocation {
    /// The place of the byte at `offset` of `bytes`, for a single error; a reader that places
    /// many keeps one `LineStarts`.
    public init(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) {
        // Only the lines before the offset matter.
        let before = UnsafeBufferPointer(rebasing: bytes[..<min(max(offset, 0), bytes.count)])
        self = LineStarts(before).location(ofByte: offset, in: bytes, file: file)
    }

    public init(ofByte offset: Int, in bytes: [UInt8], file: String) {
        self = bytes.withUnsafeBufferPointer { SourceLocation(ofByte: offset, in: $0, file: file) }
    }
}
