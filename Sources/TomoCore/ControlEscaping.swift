/// Control characters written out, so that a text printed to a terminal or a log cannot move the
/// cursor, recolour it or start a line of its own.
public enum ControlEscaping {
    /// `text` with every C0 control character, DEL and every C1 control character written as
    /// `\u001b` (the JSON form, so JSON output stays JSON with the same value); with
    /// `keepingLayout`, line feeds and tabs stay as they are (the program's own layout).
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
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
