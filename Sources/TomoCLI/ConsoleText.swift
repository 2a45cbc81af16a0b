/// A line or piece of text for the console: the program's own words, values put into them
/// (handles, names, report reasons, file paths, quoted content) and parts it paints.
///
/// The console escapes the control characters of all of it when it prints it (see
/// `escapingControlCharacters`); the only escape sequences that reach a terminal are the colours
/// of painted parts, added after escaping. A value from the store or a content file can therefore
/// never move the cursor, retitle the window or rewrite what was printed before it. Line feeds
/// and tabs stay in the program's own text; in an interpolated value or a painted part they are
/// escaped too, so a name cannot start a line that looks like tomo's.
///
/// Written as a string literal with interpolations: `"\(handle) reported \(post)\(hidden)"`, where
/// `hidden` is a painted `ConsoleText` and the rest are plain values.
public struct ConsoleText: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    struct Piece: Sendable {
        var text: String
        var color: Console.Color? = nil
        /// A value put into the text (or painted), not the program's own words.
        var isValue = false
    }

    private(set) var pieces: [Piece]

    /// The program's own text, laid out with line feeds and tabs as it likes.
    public init(_ text: some StringProtocol) {
        pieces = [Piece(text: String(text))]
    }

    /// `text` in `color` (on a stream that shows colours), escaped as a value.
    init(_ text: some StringProtocol, color: Console.Color) {
        pieces = [Piece(text: String(text), color: color, isValue: true)]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { pieces.append(Piece(text: literal)) }
        }

        /// A painted part keeps its colour.
        public mutating func appendInterpolation(_ text: ConsoleText) {
            pieces += text.pieces
        }

        public mutating func appendInterpolation(_ value: some Any) {
            pieces.append(Piece(text: "\(value)", isValue: true))
        }
    }

    /// The text escaped, without colours (so even a `ConsoleText` put into a plain string by
    /// mistake carries no control character).
    public var description: String { rendered(colors: false) }

    /// The text as the console prints it: every piece escaped, painted pieces in colour when
    /// `colors` is on.
    func rendered(colors: Bool) -> String {
        var result = ""
        for piece in pieces {
            let text = Self.escapingControlCharacters(piece.text, keepingLayout: !piece.isValue)
            if colors, let color = piece.color {
                result += "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m"
            } else {
                result += text
            }
        }
        return result
    }

    /// `text` with every C0 control character, DEL and every C1 control character written as
    /// `\u001b` (the JSON form, so JSON output stays JSON with the same value); with
    /// `keepingLayout`, line feeds and tabs stay as they are.
    static func escapingControlCharacters(_ text: String, keepingLayout: Bool) -> String {
        // On the UTF-8 bytes: C0 controls and DEL are single bytes, C1 controls are 0xC2 0x80–0x9F.
        func isControl(_ bytes: String.UTF8View, at index: String.UTF8View.Index) -> (value: UInt8, length: Int)? {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                return keepingLayout && (byte == 0x0A || byte == 0x09) ? nil : (byte, 1)
            }
            guard byte == 0xC2, let next = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), next < bytes.endIndex,
                  (0x80...0x9F).contains(bytes[next]) else { return nil }
            return (bytes[next], 2)
        }
        let bytes = text.utf8
        guard bytes.indices.contains(where: { isControl(bytes, at: $0) != nil }) else { return text }
        let hexadecimalDigits = Array("0123456789abcdef".utf8)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + 64)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if let (value, length) = isControl(bytes, at: index) {
                escaped += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexadecimalDigits[Int(value >> 4)], hexadecimalDigits[Int(value & 0xF)]]
                index = bytes.index(index, offsetBy: length)
            } else {
                escaped.append(bytes[index])
                index = bytes.index(after: index)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
