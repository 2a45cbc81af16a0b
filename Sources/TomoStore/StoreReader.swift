import TomoCore

/// A pull reader over the bytes of `store.json`: the store decoder walks the document with it and
/// builds records directly, without an intermediate `JSONValue` tree (which is what makes a
/// 20 MB store decode in tens of milliseconds). Strings with escapes, rare in a store, are handed
/// to TomoCore's `JSONParser` so escape handling lives in one place.
struct StoreReader {
    /// A problem at a byte offset; turned into `file:line:column` by `StoreDecoder`.
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int
    /// Where the key `nextKey` returned starts, for messages about that member.
    var keyOffset = 0

    init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    func failure(_ message: String, at offset: Int? = nil) -> Failure {
        Failure(message: message, offset: offset ?? position)
    }

    mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    var atEnd: Bool { position >= end }

    func peek() -> UInt8? { position < end ? bytes[position] : nil }

    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard peek() == byte else { throw failure("expected \(what)") }
        position += 1
    }

    /// Moves to the next member of an object (after `{`): its key, or nil at the closing `}`.
    mutating func nextKey(first: inout Bool) throws(Failure) -> String? {
        guard try nextItem(first: &first, close: UInt8(ascii: "}"), in: "object") else { return nil }
        keyOffset = position
        let key = try readString()
        try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
        skipWhitespace()
        return key
    }

    /// Moves to the next element of an array (after `[`); false at the closing `]`.
    mutating func nextElement(first: inout Bool) throws(Failure) -> Bool {
        try nextItem(first: &first, close: UInt8(ascii: "]"), in: "array")
    }

    private mutating func nextItem(first: inout Bool, close: UInt8, in container: String) throws(Failure) -> Bool {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end of the file: the \(container) is not closed") }
        if byte == close {
            position += 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))' in the \(container)") }
            position += 1
            skipWhitespace()
        }
        first = false
        return true
    }

    /// A string, held to the rule every text of a site is held to (`ForbiddenCharacters`): a
    /// hand-edited store cannot bring in what a content file or the command line may not.
    mutating func readString() throws(Failure) -> String {
        let open = position
        let (content, kind) = try scanString()
        let slice = UnsafeBufferPointer(rebasing: bytes[content])
        let string: String
        switch kind {
        case .ascii:
            // Handles, ids and times: nothing to look for (scanString found no control
            // character, and no DEL, or it would not be `.ascii`).
            return String(decoding: slice, as: UTF8.self)
        case .unicode:
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw failure("invalid UTF-8 in this string: save the file as UTF-8", at: open)
            }
            string = text
        case .escaped:
            let literal = Array(UnsafeBufferPointer(rebasing: bytes[(content.lowerBound - 1)..<(content.upperBound + 1)]))
            guard let text = (try? JSONParser.parse(bytes: literal, file: ""))?.stringValue else {
                throw failure("invalid string", at: open)
            }
            string = text
        }
        if let scalar = ForbiddenCharacters.first(in: string) { throw failure(Self.forbidden(scalar), at: open) }
        return string
    }

    private static func forbidden(_ scalar: Unicode.Scalar) -> String {
        "this string holds \(ForbiddenCharacters.describe(scalar)): remove it (text may hold tabs and line breaks, but no other control characters)"
    }

    /// What a string holds: `.ascii` is printable ASCII only (no DEL), taken as it is;
    /// `.unicode` holds other bytes (or a DEL) and is checked as text; `.escaped` has escapes.
    enum StringKind {
        case ascii, unicode, escaped
    }

    /// Moves past a string; the range of its content and what it holds (one pass over the bytes).
    mutating func scanString() throws(Failure) -> (content: Range<Int>, kind: StringKind) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string in double quotes") }
        let open = position
        position += 1
        let contentStart = position
        var highBits: UInt8 = 0
        var hasEscapes = false
        var hasDelete = false
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            highBits |= byte
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 1
            } else if byte < 0x20 {
                throw failure("control character in a string: write it as an escape such as \\n")
            } else if byte == 0x7F {
                hasDelete = true
            }
            position += 1
        }
        guard position < end else { throw failure("unexpected end of the file: the string is not closed", at: open) }
        position += 1
        let kind: StringKind = hasEscapes ? .escaped : (highBits & 0x80 == 0 && !hasDelete ? .ascii : .unicode)
        return (contentStart..<(position - 1), kind)
    }

    mutating func readOptionalString() throws(Failure) -> String? {
        if try readNull() { return nil }
        return try readString()
    }

    mutating func readBool() throws(Failure) -> Bool {
        if try readWord("true") { return true }
        if try readWord("false") { return false }
        throw failure("expected true or false")
    }

    mutating func readNull() throws(Failure) -> Bool {
        try readWord("null")
    }

    private mutating func readWord(_ word: StaticString) throws(Failure) -> Bool {
        skipWhitespace()
        let length = word.utf8CodeUnitCount
        guard position + length <= end else { return false }
        for index in 0..<length where bytes[position + index] != word.utf8Start[index] { return false }
        position += length
        return true
    }

    mutating func readNumber() throws(Failure) -> Double {
        try readNumberAsWritten().value
    }

    /// A number, with its text as the file has it and where it starts: a message shows the
    /// number typed (`9223372036854775807`), not the double it reads as (`9.223372036854776e+18`).
    mutating func readNumberAsWritten() throws(Failure) -> (value: Double, written: String, start: Int) {
        skipWhitespace()
        let start = position
        while position < end, Self.isNumberByte(bytes[position]) { position += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard JSONParser.isNumber(text.utf8), let value = Double(text), value.isFinite else {
            // A failure sends the document to JSONParser, whose message names what JSON refuses
            // (`010`, which Swift's Double reads as ten, some readers as eight).
            throw failure(text.isEmpty ? "unexpected text: expected a value" : "\(text) is not a number", at: start)
        }
        return (value, text, start)
    }



    /// The whole number `written` names exactly: digits, with a `-` in front or not, that fit
    /// in an Int; nil for any other form (`1e3`, `2.0`) or size. Read from the text, not the
    /// double it also reads as, which past 2^53 is another number (`9007199254740993` reads
    /// as `…992`).
    static func wholeNumber(_ written: String) -> Int? {
        isDigits(written.hasPrefix("-") ? written.dropFirst() : Substring(written)) ? Int(written) : nil
    }

    /// Whether `text` is one or more of the digits 0 to 9 and nothing else.
    static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// Checks the syntax of one value without building it and returns where it lay. The decoder
    /// splits the document into sections this way, and a section a command does not need is
    /// only checked, then written back byte for byte.
    mutating func skipValue(depth: Int = 0) throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = position
        guard depth < 64 else { throw failure("the store nests deeper than 64 levels") }
        guard let first = peek() else { throw failure("unexpected end of the file: a value is missing") }
        switch first {
        case UInt8(ascii: "\""):
            // Held to the rules of a string read (UTF-8, escapes, no forbidden character), so
            // that a command never writes back what `tomo check` refuses; only a string that is
            // not plain ASCII (rare: handles, ids and times are) is made.
            let (content, kind) = try scanString()
            try checkScanned(from: start, content: content, kind: kind)
        case UInt8(ascii: "["):
            position += 1
            var isFirst = true
            while try nextElement(first: &isFirst) { _ = try skipValue(depth: depth + 1) }
        case UInt8(ascii: "{"):
            position += 1
            var isFirst = true
            while let key = try nextKeyRange(first: &isFirst) {
                try checkScanned(from: keyOffset, content: key.content, kind: key.kind, thenAt: position)
                _ = try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBool()
        case UInt8(ascii: "n"):
            guard try readNull() else { throw failure("unexpected text: expected a value") }
        default:
            _ = try readNumber()
        }
        return start..<position
    }

    /// Holds a string `scanString` passed over (starting at `start`) to the rules of a string
    /// read (UTF-8, escapes, no forbidden character), so that a command never writes back what
    /// `tomo check` refuses; only a string that is not plain ASCII (rare: handles, ids and times
    /// are) is made. The reader is left at `thenAt`, or after the string.
    private mutating func checkScanned(from start: Int, content: Range<Int>, kind: StringKind, thenAt end: Int? = nil) throws(Failure) {
        guard kind != .ascii else { return }
        let after = end ?? position
        position = start
        _ = try readString()
        position = after
    }

    /// Like `nextKey`, without making a string of the key (which starts at `keyOffset`).
    mutating func nextKeyRange(first: inout Bool) throws(Failure) -> (content: Range<Int>, kind: StringKind)? {
        guard try nextItem(first: &first, close: UInt8(ascii: "}"), in: "object") else { return nil }
        keyOffset = position
        let key = try scanString()
        try expect(UInt8(ascii: ":"), "':' after the key")
        skipWhitespace()
        return key
    }
}
