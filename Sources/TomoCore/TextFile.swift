/// The text of a file read as UTF-8, for the readers that need nothing more of it than that
/// (templates): past a byte order mark, as every reader of the site's text files, and with an
/// error at the first byte that is not UTF-8, as the content files' checks give it.
public enum TextFile {
    /// `bytes` as text; `file` names it in the error, and `kind` says what to save ("the
    /// template").
    public static func text(of bytes: [UInt8], file: String, kind: String) throws(Diagnostic) -> String {
        let body = bytes.dropFirst(ByteOrderMark.length(in: bytes))
        if let text = String(validating: body, as: UTF8.self) { return text }
        var iterator = body.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while case .valid(let encoded) = parser.parseScalar(from: &iterator) { offset += encoded.count }
        guard offset < body.count else { return String(decoding: body, as: UTF8.self) }
        throw invalidUTF8(at: offset, in: Array(body), file: file, kind: kind)
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
