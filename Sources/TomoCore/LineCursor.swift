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

    /// A decimal number (with an optional `-`) and the space after it; nil when the field is not
    /// one or does not fit in Int64 (a damaged line).
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
            guard (0...9).contains(digit) else { return nil }
            let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = tens.addingReportingOverflow(digit)
            guard !overflowed, !carried else { return nil }
            value = sum
            digits += 1
            position += 1
        }
        skipSeparator()
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
        skipSeparator()
        return digits > 0 ? value : nil
    }

    /// One field as text, and the space after it.
    public mutating func word() -> String {
        let start = position
        while position < end, bytes[position] != UInt8(ascii: " ") { position += 1 }
        defer { skipSeparator() }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Steps over the space after a field; a field that ends the line leaves the cursor at its end,
    /// so reading on past a short (truncated) line gives empty fields, never a position outside it.
    private mutating func skipSeparator() {
        if position < end { position += 1 }
    }

    /// The rest of the line as text.
    public mutating func rest() -> String {
        let start = position
        position = end
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
