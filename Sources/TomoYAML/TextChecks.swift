import TomoCore

/// Checks on a file's raw bytes that come before any parsing, shared by YAML, JSON and front-matter files.
public enum TextChecks {
    /// An error at the first byte that is not UTF-8 or the first character no text may hold
    /// (`TextFile.problem`), or nil when `bytes` is text a site may use. `isYAML`: a raw U+2028
    /// or U+2029 is refused too.
    public static func textProblem(in bytes: [UInt8], file: String, isYAML: Bool = false) -> Diagnostic? {
        TextFile.problem(in: bytes, file: file, save: "the file", place: "a content file", refusingLineSeparators: isYAML)
    }

    /// True when `bytes` holds nothing but a byte-order mark, whitespace and YAML comments.
    public static func isBlank(_ bytes: [UInt8]) -> Bool {
        var inComment = false
        for byte in bytes.dropFirst(ByteOrderMark.length(in: bytes)) {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                inComment = false
            } else if inComment || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                continue
            } else if byte == UInt8(ascii: "#") {
                inComment = true
            } else {
                return false
            }
        }
        return true
    }
}
