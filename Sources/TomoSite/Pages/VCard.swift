/// A vCard 4.0 (RFC 6350) written line by line: every value escaped, every line folded at 75
/// octets and ended by CRLF, so no value can end its line or start a property of its own.
struct VCard {
    private var properties: [String] = []

    /// Adds `name:value`, `value` escaped. URI values (`URL`, `PHOTO`) are escaped too: a URI
    /// has no backslash, and readers (vobject among them) unescape every value, so a comma in
    /// a link stays a comma instead of splitting it into two values.
    mutating func add(_ name: String, _ value: String) {
        properties.append(name + ":" + Self.escaped(value))
    }

    /// The card's bytes, UTF-8.
    var bytes: [UInt8] {
        let lines = ["BEGIN:VCARD", "VERSION:4.0"] + properties + ["END:VCARD"]
        return Array(lines.map { Self.folded($0) + "\r\n" }.joined().utf8)
    }

    /// `\`, `,` and `;` after a backslash; a line break (CRLF, CR or LF) as `\n`; the other
    /// control characters (a tab aside) left out, since a vCard value may not hold them.
    static func escaped(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        var afterCR = false
        for scalar in value.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\", ",", ";":
                escaped += "\\"
                escaped.unicodeScalars.append(scalar)
            case "\r":
                escaped += "\\n"
            case "\n":
                if !afterCR { escaped += "\\n" }
            case "\t":
                escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Longest line in octets, CRLF not counted (RFC 6350, 3.2).
    static let lineLimit = 75

    /// `line` folded: a CRLF and a space before whatever would pass `lineLimit` octets, the
    /// space counted in the next line; never inside a character's UTF-8 bytes.
    static func folded(_ line: String) -> String {
        guard line.utf8.count > lineLimit else { return line }
        var folded = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if octets + size > lineLimit {
                folded += "\r\n "
                octets = 1
            }
            folded.unicodeScalars.append(scalar)
            octets += size
        }
        return folded
    }
}
