/// The characters no text of a site may hold: the ones an HTML parser reports as an error or
/// XML 1.0 forbids, which would reach pages and feeds raw (an escape sequence in a name, a
/// NUL that makes `feed.xml` unreadable). That is every control character but tab, line feed
/// and carriage return (C0, DEL and C1, NEL included), and the Unicode noncharacters
/// (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE and U+FFFF among them).
///
/// Bidirectional marks and overrides and the line and paragraph separators are allowed: they
/// are valid HTML and XML and right-to-left text needs them.
///
/// Content files, store entries and command-line text are all checked against this one rule.
public enum ForbiddenCharacters {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0xFDD0...0xFDEF: return true
        default: return value & 0xFFFE == 0xFFFE
        }
    }

    /// The first forbidden character of `text`, if any.
    public static func first(in text: some StringProtocol) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: contains)
    }

    /// `the control character U+001B` or `the noncharacter U+FFFF`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        scalar.value <= 0x9F ? "the control character \(code(scalar))" : "the noncharacter \(code(scalar))"
    }

    /// `U+001B`.
    public static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// What is wrong with `text`, the value of `name` (`"name"`, `--name`), with the fix; nil
    /// when it holds no forbidden character.
    public static func problem(in text: some StringProtocol, named name: String) -> String? {
        problem(in: text).map { "\(name) \($0)" }
    }

    /// `holds the control character U+001B: remove it (…)`, for a message that names the text
    /// before it; nil when `text` holds no forbidden character.
    public static func problem(in text: some StringProtocol) -> String? {
        guard let scalar = first(in: text) else { return nil }
        return "holds \(describe(scalar)): remove it (text may hold tabs and line breaks, but no other control characters)"
    }

    /// `bytes` (UTF-8) with every character XML 1.0 forbids, and every byte that is not UTF-8,
    /// replaced by U+FFFD: what an XML file is written through, so that no text that slipped
    /// past the content checks (a theme's own labels, a template) makes it unreadable.
    public static func xmlSafe(_ bytes: [UInt8]) -> [UInt8] {
        // Nearly always nothing to replace: look before copying.
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x80 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        let replacement = Array("\u{FFFD}".utf8)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                let value = scalar.value
                let forbiddenInXML = (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || value == 0xFFFE || value == 0xFFFF
                if forbiddenInXML { output += replacement } else { output += encoded }
            case .error:
                output += replacement
            case .emptyInput:
                return output
            }
        }
    }
}
