/// The text of a file read as UTF-8, for the readers that need nothing more of it than that
/// (templates): past a byte order mark, as every reader of the site's text files, and with an
/// error at the first byte that is not UTF-8, as the content files' checks give it.
public enum TextFile {
    /// `bytes` as text; `file` names it in the error, and `kind` says what to save ("the
    /// template").
    /// With `refusingControlCharacters` (a site's own templates), a character no text of a
    /// site may hold (`ForbiddenCharacters`: a raw control character, which would reach every
    /// page made from it) is an error at it too; `tomo template render` prints any text.
    public static func text(of bytes: [UInt8], file: String, kind: String, refusingControlCharacters: Bool = false) throws(Diagnostic) -> String {
        let body = bytes.dropFirst(ByteOrderMark.length(in: bytes))
        if let text = String(validating: body, as: UTF8.self) {
            if refusingControlCharacters, let problem = problem(in: Array(body), file: file, save: kind, place: kind) { throw problem }
            return text
        }
        var iterator = body.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while case .valid(let encoded) = parser.parseScalar(from: &iterator) { offset += encoded.count }
        guard offset < body.count else { return String(decoding: body, as: UTF8.self) }
        throw invalidUTF8(at: offset, in: Array(body), file: file, kind: kind)
    }

    /// An error at the first byte of `bytes` that is not UTF-8 (`save` says what to save as
    /// UTF-8: "the file"), or at the first character no text of a site may hold
    /// (`ForbiddenCharacters`: a raw control character, in a caption as much as in a value),
    /// which is "not allowed in `place`"; nil when `bytes` is text a site may use.
    /// `refusingLineSeparators` (YAML): a raw U+2028 or U+2029 is refused too, in the same pass:
    /// it ends a line for libyaml (YAML 1.1) and not for YAML 1.2 readers (editors, the schemas'
    /// checker), so every later line would be numbered otherwise, and a plain value holding one
    /// would not parse. Written as an escape it is the same text.
    public static func problem(in bytes: [UInt8], file: String, save: String, place: String, refusingLineSeparators: Bool = false) -> Diagnostic? {
        // Nearly always printable ASCII, tabs and line breaks: nothing to look for.
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return nil }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if ForbiddenCharacters.contains(scalar) {
                    return Diagnostic(
                        "\(ForbiddenCharacters.describe(scalar)) is not allowed in \(place): remove it (tabs and line breaks are fine)",
                        at: SourceLocation(ofByte: offset, in: bytes, file: file)
                    )
                }
                if refusingLineSeparators, scalar.value == 0x2028 || scalar.value == 0x2029 {
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
                return invalidUTF8(at: offset, in: bytes, file: file, kind: save)
            }
        }
    }

    /// The error for the byte at `offset` of `bytes`, the first that is not UTF-8, in the words
    /// every reader of the site's files uses; `kind` says what to save ("the file").
    public static func invalidUTF8(at offset: Int, in bytes: [UInt8], file: String, kind: String) -> Diagnostic {
        Diagnostic(
            "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true))): save \(kind) as UTF-8",
            at: SourceLocation(ofByte: offset, in: bytes, file: file)
        )
    }
}
