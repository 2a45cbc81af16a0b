import TomoCore

/// A Markdown file split into its YAML front matter and its body.
///
/// The front matter keeps the file's opening `---` line and so starts at line 1: the YAML
/// parser's line numbers are the file's real line numbers without any offset.
public struct FrontMatter: Sendable {
    /// `---` and the YAML lines up to (not including) the closing `---`; nil when the file has none.
    public var yaml: [UInt8]?
    /// The Markdown after the closing `---` (the whole file when there is no front matter).
    public var body: String
    /// The file line the body starts on.
    public var bodyLine: Int

    /// Splits `bytes`; the file must be valid UTF-8.
    public static func split(_ bytes: [UInt8], file: String) throws(Diagnostic) -> FrontMatter {
        if let problem = TextChecks.textProblem(in: bytes, file: file) { throw problem }
        var lines = LineScanner(bytes: bytes)
        let first = lines.next()
        // Lines ended by CR alone (old Mac files) read as one line: the `---` on the first
        // would not be found, and the message would send the writer looking for it. (A file
        // with no line feed is its first line: only that line is looked at.)
        if let first, first.upperBound == bytes.count, bytes[first].contains(UInt8(ascii: "\r")) {
            throw Diagnostic(
                "the lines of this file end with a carriage return alone (CR, as old Mac files do): save it with LF line ends (CR LF also works)",
                at: SourceLocation(file: file, line: 1, column: 1)
            )
        }
        guard let opening = first, isDelimiter(bytes[opening]) else {
            return FrontMatter(yaml: nil, body: String(decoding: bytes, as: UTF8.self), bodyLine: 1)
        }
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            if isDelimiter(bytes[line]) {
                let bodyStart = lines.offset
                return FrontMatter(
                    yaml: Array(bytes[..<line.lowerBound]),
                    body: String(decoding: bytes[bodyStart...], as: UTF8.self),
                    bodyLine: lineNumber + 1
                )
            }
        }
        throw Diagnostic(
            "the front matter opened on line 1 is not closed: add a line with only `---` after its last field",
            at: SourceLocation(file: file, line: 1, column: 1)
        )
    }

    /// `---` alone on its line (trailing spaces and a UTF-8 byte-order mark allowed).
    private static func isDelimiter(_ line: ArraySlice<UInt8>) -> Bool {
        var text = line.dropFirst(ByteOrderMark.length(in: line))
        while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: "\r") {
            text = text.dropLast()
        }
        return text.elementsEqual("---".utf8)
    }
}

/// The byte ranges of a file's lines, without their line feeds.
private struct LineScanner {
    let bytes: [UInt8]
    /// Where the next line starts.
    var offset = 0

    mutating func next() -> Range<Int>? {
        guard offset < bytes.count else { return nil }
        let start = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") { offset += 1 }
        let end = offset
        if offset < bytes.count { offset += 1 }
        return start..<end
    }
}
