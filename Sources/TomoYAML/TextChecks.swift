import TomoCore

/// Checks on a file's raw bytes that come before any parsing, shared by YAML, JSON and front-matter files.
public enum TextChecks {
    /// An error at the first byte that is not UTF-8 or the first character no text may hold
    /// (`ForbiddenCharacters`: a raw control character, in a caption as much as in a value),
    /// or nil when `bytes` is text a site may use. `isYAML`: a raw U+2028 or U+2029 is refused
    /// too, in the same pass: it ends a line for libyaml (YAML 1.1) and not for YAML 1.2 readers
    /// (editors, the schemas' checker), so every later line would be numbered otherwise, and a
    /// plain value holding one would not parse. Written as an escape it is the same text.
    public static func textProblem(in bytes: [UInt8], file: String, isYAML: Bool = false) -> Diagnostic? {
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
                if isYAML, scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let (name, escape) = scalar.value == 0x2028 ? ("U+2028 (line separator)", "\\u2028") : ("U+2029 (paragraph separator)", "\\u2029")
                    return Diagnostic(
                        "a raw \(name) in YAML, which YAML readers do not agree ends a line or not: write it as \(escape) inside double quotes",
                        at: SourceLocation(ofByte: offset, in: bytes, file: file)
                    )
                }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return TextFile.invalidUTF8(at: offset, in: bytes, file: file, kind: "the file")
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
