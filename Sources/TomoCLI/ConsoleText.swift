import TomoCore

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

    /// `text` with its control characters escaped (`ControlEscaping`); with `keepingLayout`,
    /// line feeds and tabs stay as they are.
    static func escapingControlCharacters(_ text: String, keepingLayout: Bool) -> String {
        ControlEscaping.escaped(text, keepingLayout: keepingLayout)
    }
}
