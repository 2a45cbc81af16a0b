/// Writes `JSONValue`s as UTF-8 JSON text with sorted keys, so the same data always gives the
/// same bytes and a `git diff` of a written file shows only what changed.
public enum JSONWriter {
    public enum Style: Sendable {
        /// Everything on one line, no spaces.
        case compact
        /// Two-space indentation, one member per line.
        case pretty
    }

    public static func string(_ value: JSONValue, style: Style = .pretty) -> String {
        var output: [UInt8] = []
        append(value, to: &output, style: style)
        return String(decoding: output, as: UTF8.self)
    }

    public static func append(_ value: JSONValue, to output: inout [UInt8], style: Style, indent: Int = 0) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number): appendNumber(number, to: &output)
        case .string(let text): appendString(text, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, style: style, indent: indent + 1)
                append(element, to: &output, style: style, indent: indent + 1)
            }
            newline(&output, style: style, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, style: style, indent: indent + 1)
                appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(UInt8(ascii: " ")) }
                append(member.value, to: &output, style: style, indent: indent + 1)
            }
            newline(&output, style: style, indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], style: Style, indent: Int) {
        guard style == .pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Integral values print without a fraction (`1`, not `1.0`), as JSON would show them.
    public static func appendNumber(_ number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        if number.rounded() == number, abs(number) < 1e15 {
            output.append(contentsOf: String(Int(number)).utf8)
        } else {
            output.append(contentsOf: "\(number)".utf8)
        }
    }

    public static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: their bytes go in at once.
        let isPlain = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        } ?? false
        if isPlain {
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
