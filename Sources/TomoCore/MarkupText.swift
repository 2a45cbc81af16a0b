/// Text inside markup: XML, HTML, and the Pango markup share cards are drawn from.
public enum MarkupText {
    /// `text` safe inside XML or HTML text and attribute values (and Pango markup).
    public static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `text` with the character references of an attribute value read back: those `escaped`
    /// writes, and numeric ones (libcmark writes `'` as `&#x27;`). Any other `&` stays as it is.
    public static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";") else {
                output += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let name = rest[afterAmpersand..<semicolon]
            if let character = reference(name) {
                output.unicodeScalars.append(character)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[afterAmpersand...]
            }
        }
        output += rest
        return output
    }

    private static func reference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
