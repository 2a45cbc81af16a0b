/// The file a request asks for, taken from the raw request URI and checked so that nothing
/// outside the served snapshot can ever be named.
struct RequestTarget: Equatable, Sendable {
    /// The decoded path below the site root, without its leading slash: `""` for `/`,
    /// `alice/` for `/alice/`, `static/style.css`.
    var path: String
    /// The path exactly as the client sent it (still percent-encoded), for redirects.
    var rawPath: String
    /// The query string without its `?`, as sent, or nil when there was none.
    var query: String?

    /// The longest request target served, in bytes. Longer ones get 414 from here, with the
    /// server's headers; libmicrohttpd itself only answers (414, without them) a request line
    /// that does not fit its 32 KB connection buffer at all.
    static let maximumLength = 8192

    /// Splits and decodes a raw request URI (`/alice/?tab=posts`).
    ///
    /// A URI over `maximumLength` bytes is refused with 414, any other problem with 400.
    ///
    /// A raw backslash or `#` is refused. Escapes are decoded exactly once, then the decoded path
    /// must be valid UTF-8 without control characters, and must have no `.`, `..` or empty
    /// segments: so `..`, `%2e%2e`, `%2f..`, `%00` and `//etc/passwd` are all refused before any
    /// lookup, while `%23` and `%5C` name files with `#` and `\` in their names.
    static func parse(_ rawURI: [UInt8]) -> Result<RequestTarget, Refusal> {
        guard rawURI.count <= maximumLength else {
            return .failure(Refusal(status: 414, reason: "the request target is longer than \(maximumLength) bytes"))
        }
        let questionMark = rawURI.firstIndex(of: UInt8(ascii: "?"))
        let rawPathBytes = rawURI[..<(questionMark ?? rawURI.endIndex)]
        let query = questionMark.map { rawURI[rawURI.index(after: $0)...] }
        guard rawPathBytes.first == UInt8(ascii: "/") else {
            return .failure(.badRequest("the request path must start with /"))
        }
        // Raw, a backslash is a folder separator to browsers and to some servers (`..\`), and a
        // `#` starts a fragment, which no client sends: either one means the target is not what
        // it seems, so it is refused.
        if rawPathBytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "#") }) {
            return .failure(.badRequest("the request path contains a raw backslash or #: write them as %5C and %23"))
        }
        guard let decoded = percentDecoded(rawPathBytes) else {
            return .failure(.badRequest("the request path has a malformed percent-escape"))
        }
        // Decoded, `#` and `\` are ordinary characters of a file name: `tomo build` publishes
        // `static/x#y.txt` and `static/a\b.txt`, and the path is only looked up in the snapshot,
        // never given to the file system, so neither can lead out of the site.
        if decoded.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .failure(.badRequest("the request path contains a control character"))
        }
        guard let path = String(validating: decoded, as: UTF8.self),
              let rawPath = String(validating: rawPathBytes, as: UTF8.self),
              let queryText = query.map({ String(validating: $0, as: UTF8.self) }) ?? .some(nil) else {
            return .failure(.badRequest("the request URI is not valid UTF-8"))
        }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment == "." || segment == ".." {
                return .failure(.badRequest("the request path may not contain . or .. segments"))
            }
            if segment.isEmpty && index != segments.count - 1 {
                return .failure(.badRequest("the request path may not contain //"))
            }
        }
        return .success(RequestTarget(path: String(path.dropFirst()), rawPath: rawPath, query: queryText))
    }

    /// Decodes `%XX` escapes once; nil when a `%` is not followed by two hex digits.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex,
                  let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                return nil
            }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
