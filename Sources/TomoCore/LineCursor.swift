/// Reads the space-separated fields of a line of a cache file (numbers, then a path that takes
/// the rest of the line) straight from its bytes: the build's kept state has a line per output
/// file, hundreds of thousands of them.
public struct LineCursor: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    /// Calls `body` for every line of `bytes` until it returns false; false when it did.
    public static func forEachLine(of bytes: [UInt8], _ body: (inout LineCursor) -> Bool) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                if end > start {
                    var cursor = LineCursor(bytes: buffer, position: start, end: end)
                    guard body(&cursor) else { return false }
                }
                start = end + 1
            }
            return true
        }
    }

    /// A decimal number (with an optional `-`) and the space after it.
    public mutating func integer() -> Int64? {
        var negative = false
        if position < end, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value: Int64 = 0
        var digits = 0
        while position < end, bytes[position] != UInt8(ascii: " ") {
            let digit = Int64(bytes[position]) - 48
            guard (0...9).contains(digit), digits < 19 else { return nil }
            value = value * 10 + digit
            digits += 1
            position += 1
        }
        position += 1
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// A hexadecimal number (lower case, up to 16 digits) and the space after it.
    public mutating func hexadecimal() -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while position < end, bytes[position] != UInt8(ascii: " ") {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 87
            default: return nil
            }
            guard digits < 16 else { return nil }
            value = value << 4 | UInt64(digit)
            digits += 1
            position += 1
        }
        position += 1
        return digits > 0 ? value : nil
    }

    /// One field as text, and the space after it.
    public mutating func word() -> String {
        let start = position
        while position < end, bytes[position] != UInt8(ascii: " ") { position += 1 }
        defer { position += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// The rest of the line as text.
    public mutating func rest() -> String {
        let start = min(position, end)
        position = end
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
