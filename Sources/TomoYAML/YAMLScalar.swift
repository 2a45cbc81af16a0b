/// A scalar's value after the YAML 1.2 core schema: `yes`/`no`/`on`/`off` stay strings
/// (they were booleans only in YAML 1.1), `0x1F` and `0o17` are integers, `~` is null.
public enum YAMLScalar: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)

    /// Resolves `text`: quoted and block scalars, and those tagged `!!str` or `!`, are always strings.
    public static func resolve(_ text: String, style: YAMLScalarStyle, tag: String? = nil) -> YAMLScalar {
        if style != .plain || tag == "tag:yaml.org,2002:str" || tag == "!" {
            return .string(text)
        }
        return resolvePlain(text)
    }

    /// The core schema's tag resolution for an untagged plain scalar (YAML 1.2.2, section 10.3.2).
    public static func resolvePlain(_ text: String) -> YAMLScalar {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
        case ".nan", ".NaN", ".NAN": return .float(.nan)
        default: break
        }
        if let integer = integer(text) { return .int(integer) }
        if isCoreFloat(text), let value = Double(text) { return .float(value) }
        return .string(text)
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`; nil when it is none of these or overflows.
    private static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") { return hexOrOctal(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0o") { return hexOrOctal(text.dropFirst(2), radix: 8) }
        var digits = Substring(text)
        if let sign = digits.first, sign == "+" || sign == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private static func hexOrOctal(_ digits: Substring, radix: Int) -> Int? {
        // Int(_:radix:) accepts a sign, the schema does not.
        guard let first = digits.first, first != "+", first != "-" else { return nil }
        return Int(digits, radix: radix)
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    private static func isCoreFloat(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digitCount() -> Int {
            let count = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integerDigits = digitCount()
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = digitCount()
        }
        guard integerDigits > 0 || fractionDigits > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digitCount() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// For messages: "expected a string, found a number".
    public var typeDescription: String {
        switch self {
        case .null: "nothing (an empty value)"
        case .bool: "true/false"
        case .int, .float: "a number"
        case .string: "a string"
        }
    }
}

extension YAMLScalar {
    /// `text` as a YAML double-quoted scalar that reads back as exactly `text`, always a string
    /// (never a number, a list or a comment): what tomo writes into content files. Whatever is
    /// not printable (controls, line separators, a byte-order mark) is an escape.
    public static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                let category = scalar.properties.generalCategory
                if category == .control || category == .lineSeparator || category == .paragraphSeparator
                    || scalar.value == 0xFEFF || scalar.properties.isNoncharacterCodePoint {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                        : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
