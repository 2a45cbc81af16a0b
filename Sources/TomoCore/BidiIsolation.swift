/// User text put into a text the theme or tomo wrote, where no markup can isolate it: a
/// `<title>`, a `<meta content>` (`og:title`, `twitter:title`, `og:image:alt`), a feed's title.
///
/// Content may hold bidirectional formatting characters (right-to-left text needs them). One
/// left open, such as U+202E RIGHT-TO-LEFT OVERRIDE at the end of a display name, would run on
/// into what follows the value: `Name (@alice) · Site` shows reversed. In page text a
/// `<bdi>` element or `dir="auto"` stops it; in these contexts only characters can. So a value
/// that holds any such character is put between U+2068 FIRST STRONG ISOLATE and U+2069 POP
/// DIRECTIONAL ISOLATE: the PDI closes every embedding, override and isolate the value opened
/// (Unicode's bidirectional algorithm, UAX #9, rule X6a), and a PDI of the value's own that
/// closes no isolate of its own is dropped, so that it cannot close the FSI early. A value
/// without one is left as it is: it cannot change the direction of the text after it.
public enum BidiIsolation {
    /// `value` isolated from the text around it, as described above.
    public static func isolated(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: isFormatting) else { return value }
        var balanced = String.UnicodeScalarView()
        var openIsolates = 0
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x2066, 0x2067, 0x2068:
                openIsolates += 1
            case 0x2069:
                guard openIsolates > 0 else { continue }
                openIsolates -= 1
            default:
                break
            }
            balanced.append(scalar)
        }
        // Each isolate the value left open is closed first, so that the last PDI closes the
        // FSI itself (a PDI closes the innermost isolate, with the overrides inside it).
        return "\u{2068}" + String(balanced) + String(repeating: "\u{2069}", count: openIsolates) + "\u{2069}"
    }

    /// The bidirectional formatting characters: the marks (LRM, RLM, ALM), the embeddings and
    /// overrides (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
    static func isFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// A text made of the program's own words and values, for the contexts `BidiIsolation` is
/// for: every interpolated value is isolated, the literal parts are kept as written.
/// `"\(profile.name) (@\(handle)) · \(config.title)"`.
public struct IsolatingText: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    public let description: String

    public init(stringLiteral value: String) {
        description = value
    }

    /// Words of the program or the theme (a label), whose values are isolated already.
    public init(own text: String) {
        description = text
    }

    public init(stringInterpolation: StringInterpolation) {
        description = stringInterpolation.text
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        public mutating func appendInterpolation(_ value: some StringProtocol) {
            text += BidiIsolation.isolated(String(value))
        }

        /// A text made the same way, kept as it is.
        public mutating func appendInterpolation(_ text: IsolatingText) {
            self.text += text.description
        }

        public mutating func appendInterpolation(_ number: Int) {
            text += String(number)
        }
    }
}
