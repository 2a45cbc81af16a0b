/// Parses JSON text (RFC 8259) into `JSONValue`, reporting problems as located diagnostics.
///
/// Works on UTF-8 bytes directly: large stores parse in one pass without building
/// intermediate Foundation objects.
public struct JSONParser {
    /// Whether `text` is a number as JSON writes one (RFC 8259): an optional `-`, `0` or digits
    /// not starting with 0, an optional fraction, an optional exponent.
    public static func isNumber(_ text: some Collection<UInt8>) -> Bool {
        var bytes = text[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// Parses `text`; `file` names the source in error messages.
    public static func parse(_ text: String, file: String) throws(Diagnostic) -> JSONValue {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses UTF-8 `bytes`; `file` names the source in error messages. A byte order mark
    /// before the value is read past, as by every reader of the site's text files (RFC 8259
    /// lets a parser ignore it); locations are counted without it, as an editor shows the file.
    public static func parse(bytes: [UInt8], file: String) throws(Diagnostic) -> JSONValue {
        var copy = Array(bytes.dropFirst(ByteOrderMark.length(in: bytes)))
        return try parse(bytes: &copy, file: file)
    }

    private static func parse(bytes: inout [UInt8], file: String) throws(Diagnostic) -> JSONValue {
        let result: Result<JSONValue, Diagnostic> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Cursor(bytes: buffer, file: file)
            do {
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.position < buffer.count {
                    throw parser.error("unexpected text after the JSON value: a file holds one value, remove what follows it")
                }
                return .success(value)
            } catch let error as Diagnostic {
                return .failure(error)
            } catch {
                return .failure(Diagnostic("\(error)", at: SourceLocation(file: file, line: 1, column: 1)))
            }
        }
        return try result.get()
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
            self.bytes = bytes
            self.file = file
        }

        /// Nesting limit: deeper input is an error, not a stack overflow.
        static let maximumDepth = 512

        func error(_ message: String, at offset: Int? = nil) -> Diagnostic {
            Diagnostic(message, at: SourceLocation(ofByte: offset ?? position, in: bytes, file: file))
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(Diagnostic) -> JSONValue {
            guard position < bytes.count else { throw error("unexpected end of the file: a value is missing") }
            guard depth < Self.maximumDepth else { throw error("the JSON nests deeper than \(Self.maximumDepth) levels: write it flatter (no content file needs more than a few)") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectWord("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw error("unexpected character \(describe(bytes[position])): expected a JSON value")
            }
        }

        func describe(_ byte: UInt8) -> String {
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "0x" + String(byte, radix: 16)
        }

        mutating func expectWord(_ word: StaticString) throws(Diagnostic) {
            let length = word.utf8CodeUnitCount
            let start = word.utf8Start
            guard position + length <= bytes.count else { throw error("unexpected end of the file: finish the value") }
            for index in 0..<length where bytes[position + index] != start[index] {
                throw error("unexpected text: expected \(word) (JSON writes true, false and null in lower case, and text in double quotes)")
            }
            position += length
        }

        mutating func parseObject(depth: Int) throws(Diagnostic) -> JSONValue {
            let open = position
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of the file: the object opened here is not closed", at: open) }
                guard bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key in double quotes: write \"key\": value, with no comma after the last one") }
                let keyStart = position
                let key = try parseString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\": write \"\(key)\": value") }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth + 1)
                if members.updateValue(value, forKey: key) != nil {
                    throw error("duplicate key \"\(key)\" in this object: keep only one", at: keyStart)
                }
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of the file: the object opened here is not closed", at: open) }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                throw error("expected ',' or '}' in the object: put a comma between two members, or close the object with }")
            }
        }

        mutating func parseArray(depth: Int) throws(Diagnostic) -> JSONValue {
            let open = position
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of the file: the array opened here is not closed", at: open) }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                throw error("expected ',' or ']' in the array: put a comma between two values, or close the array with ]")
            }
        }

        mutating func parseNumber() throws(Diagnostic) -> JSONValue {
            let start = position
            var isInteger = true
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            if position == digitsStart { throw error("a number needs digits", at: start) }
            if bytes[digitsStart] == 0x30, position - digitsStart > 1 {
                // Named as written, with the number it would be (`010` is ten to some readers,
                // eight to others).
                var end = position
                while end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")
                    || bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[end]) { end += 1 }
                let sign = digitsStart > start ? "-" : ""
                let digits = bytes[digitsStart..<position].drop { $0 == 0x30 }
                let fixed = sign + (digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self)) + String(decoding: bytes[position..<end], as: UTF8.self)
                // Suggested only when it is a number (`01e` has no fix of this kind).
                let write = JSONParser.isNumber(fixed.utf8) ? "write \(fixed)" : "write the number without them"
                throw error("\(String(decoding: bytes[start..<end], as: UTF8.self)): numbers may not start with 0: \(write) (or put the value in quotes to keep it as text)", at: start)
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                let fractionStart = position
                while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
                if position == fractionStart { throw error("a number needs digits after '.'", at: start) }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                isInteger = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                let exponentStart = position
                while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
                if position == exponentStart { throw error("a number needs digits in its exponent", at: start) }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let value = Int(text) { return .int(value) }
            guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range: write a smaller number, or put it in quotes to keep it as text", at: start) }
            return .double(value)
        }

        mutating func parseString() throws(Diagnostic) -> String {
            let open = position
            position += 1
            let contentStart = position
            // Fast path: no escapes, so the bytes between the quotes are the string.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                    position += 1
                    guard let string = String(validating: slice, as: UTF8.self) else {
                        throw error("invalid UTF-8 in this string: save the file as UTF-8", at: open)
                    }
                    return string
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw error("control character in a string: write it as an escape such as \\n") }
                position += 1
            }
            var decoded = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let string = String(validating: decoded, as: UTF8.self) else {
                        throw error("invalid UTF-8 in this string: save the file as UTF-8", at: open)
                    }
                    return string
                case UInt8(ascii: "\\"):
                    position += 1
                    guard position < bytes.count else { break }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): decoded.append(0x22)
                    case UInt8(ascii: "\\"): decoded.append(0x5C)
                    case UInt8(ascii: "/"): decoded.append(0x2F)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try parseHex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                                throw error("unpaired UTF-16 surrogate in a \\u escape: write the character itself, or both halves of its pair (\\ud83d\\ude00)")
                            }
                            position += 2
                            let low = try parseHex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in a \\u escape: write the character itself, or both halves of its pair (\\ud83d\\ude00)") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw error("unpaired UTF-16 surrogate in a \\u escape: write the character itself, or both halves of its pair (\\ud83d\\ude00)")
                        }
                        guard let unicodeScalar = Unicode.Scalar(scalar) else { throw error("invalid \\u escape: write the character itself") }
                        decoded.append(contentsOf: String(Character(unicodeScalar)).utf8)
                    default:
                        throw error("unknown escape \\\(Character(Unicode.Scalar(escape))) in a string: write \\\\ for a backslash (JSON's escapes are \\n \\t \\r \\b \\f \\/ \\\" \\\\ and \\uXXXX)", at: position - 2)
                    }
                default:
                    if byte < 0x20 { throw error("control character in a string: write it as an escape such as \\n") }
                    decoded.append(byte)
                    position += 1
                }
            }
            throw error("unexpected end of the file: the string opened here is not closed", at: open)
        }

        mutating func parseHex4() throws(Diagnostic) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits: write \\u00e9, or the character itself") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw error("a \\u escape needs four hex digits: write \\u00e9, or the character itself")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
