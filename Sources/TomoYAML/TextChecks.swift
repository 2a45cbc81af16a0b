import TomoCore

/// Checks on a file's raw bytes that come before any parsing, shared by YAML, JSON and front-matter files.
public enum TextChecks {
    /// An error at the first byte that is not UTF-8 or the first character no text may hold
    /// (`ForbiddenCharacters`: a raw control character, in a caption as much as in a value),
    /// or nil when `bytes` is text a site may use.
    public static func textProblem(in bytes: [UInt8], file: String) -> Diagnostic? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if ForbiddenCharacters.contains(scalar) {
                    return Diagnostic(
                        "\(ForbiddenCharacters.describe(scalar)) is not allowed in a content file: remove it (tabs and line breaks are fine)",
                        at: SourceLocation(ofByte: offset, in: bytes, file: file)
                    )
                }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return Diagnostic(
                    "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true))): save the file as UTF-8",
                    at: SourceLocation(ofByte: offset, in: bytes, file: file)
                )
            }
        }
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
