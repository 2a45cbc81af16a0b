/// A compact binary form for caches that a new process reads back far faster than it could
/// parse the files they came from: unsigned numbers as LEB128 varints, signed ones zigzagged,
/// strings as a length and UTF-8 bytes. Only for caches: a reader that meets anything it does
/// not expect throws, and the cache is then ignored, never read as something else.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public mutating func write(_ value: Int64) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func write(_ value: Int) { write(Int64(value)) }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// The exact bits, so a date read back is the same `Double`.
    public mutating func write(_ value: Double) { write(value.bitPattern) }

    public mutating func write(_ value: String) {
        let utf8 = value.utf8
        write(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A presence byte, then the value through `write` when there is one.
    public mutating func write<Value>(_ value: Value?, _ write: (inout ByteWriter, Value) -> Void) {
        self.write(value != nil)
        if let value { write(&self, value) }
    }

    /// The count, then each element through `write`.
    public mutating func write<Element>(_ values: [Element], _ write: (inout ByteWriter, Element) -> Void) {
        self.write(UInt64(values.count))
        for value in values { write(&self, value) }
    }

    public mutating func append(_ other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// The bytes written, followed by eight bytes of their checksum: what `ByteReader(sealed:)`
    /// reads back, so a damaged or cut cache file is noticed instead of read as another one.
    public var sealed: [UInt8] {
        var hasher = StableHasher()
        hasher.add(bytes: bytes)
        var sealed = bytes
        withUnsafeBytes(of: hasher.value.littleEndian) { sealed.append(contentsOf: $0) }
        return sealed
    }
}

/// Reads what a `ByteWriter` wrote, in the same order.
public struct ByteReader {
    /// The bytes end early or hold something the writer never writes.
    public struct Malformed: Error {
        public init() {}
    }

    private let bytes: [UInt8]
    public private(set) var offset: Int
    /// Where the bytes to read end (before a sealed file's checksum).
    private let end: Int

    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        end = bytes.count
    }

    /// A reader of `range` of `bytes` only (one entry of a larger file).
    public init(_ bytes: [UInt8], in range: Range<Int>) {
        self.bytes = bytes
        offset = max(0, min(range.lowerBound, bytes.count))
        end = max(offset, min(range.upperBound, bytes.count))
    }

    /// A reader of what `ByteWriter.sealed` wrote, or nil when the checksum at the end does not
    /// match the bytes before it.
    public init?(sealed bytes: [UInt8]) {
        guard bytes.count > 8 else { return nil }
        let bodyEnd = bytes.count - 8
        let checksum = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bodyEnd, as: UInt64.self)) }
        var hasher = StableHasher()
        bytes.withUnsafeBytes { hasher.add(raw: UnsafeRawBufferPointer(rebasing: $0[..<bodyEnd])) }
        guard checksum == hasher.value else { return nil }
        self.bytes = bytes
        offset = 0
        end = bodyEnd
    }

    public var isAtEnd: Bool { offset == end }

    public mutating func uint64() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end, shift < 64 else { throw Malformed() }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    public mutating func int64() throws(Malformed) -> Int64 {
        let raw = try uint64()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    public mutating func int() throws(Malformed) -> Int {
        let value = try int64()
        guard let exact = Int(exactly: value) else { throw Malformed() }
        return exact
    }

    /// A count of things that each take at least one byte: never more than the bytes left.
    public mutating func count() throws(Malformed) -> Int {
        let value = try uint64()
        guard value <= UInt64(end - offset) else { throw Malformed() }
        return Int(value)
    }

    /// Passes over `count` bytes.
    public mutating func skip(_ count: Int) throws(Malformed) {
        guard count >= 0, count <= end - offset else { throw Malformed() }
        offset += count
    }

    public mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < end else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func bool() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    public mutating func double() throws(Malformed) -> Double {
        Double(bitPattern: try uint64())
    }

    public mutating func string() throws(Malformed) -> String {
        let length = try count()
        let start = offset
        offset += length
        let text = bytes.withUnsafeBufferPointer { buffer in
            let text = UnsafeBufferPointer(rebasing: buffer[start..<start + length])
            // Validating UTF-8 took most of the time of reading a cache of 100,000 posts; text
            // of ASCII bytes only (nearly all of it) is valid as it is, and is only copied.
            return Self.isASCII(text) ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
        guard let text else { throw Malformed() }
        return text
    }

    /// Whether every byte is below 0x80, looked at eight at a time.
    private static func isASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(text)
        var seen: UInt64 = 0
        var index = 0
        while index + 8 <= raw.count {
            seen |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            seen |= UInt64(raw[index])
            index += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    public mutating func optional<Value>(_ read: (inout ByteReader) throws(Malformed) -> Value) throws(Malformed) -> Value? {
        try bool() ? try read(&self) : nil
    }

    public mutating func array<Element>(_ read: (inout ByteReader) throws(Malformed) -> Element) throws(Malformed) -> [Element] {
        let count = try count()
        var values: [Element] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}

extension ByteWriter {
    public mutating func write(_ location: SourceLocation) {
        write(location.file)
        write(location.line)
        write(location.column)
    }

    public mutating func write(_ diagnostic: Diagnostic) {
        write(diagnostic.message)
        write(diagnostic.severity == .error)
        write(diagnostic.location) { $0.write($1) }
    }

    public mutating func write(_ stamp: FileStamp) {
        write(stamp.size)
        write(stamp.inode)
        write(stamp.modified)
        write(stamp.changed)
    }
}

extension ByteReader {
    public mutating func location() throws(Malformed) -> SourceLocation {
        SourceLocation(file: try string(), line: try int(), column: try int())
    }

    public mutating func diagnostic() throws(Malformed) -> Diagnostic {
        let message = try string()
        let severity: Diagnostic.Severity = try bool() ? .error : .warning
        return Diagnostic(message, at: try optional { reader throws(Malformed) in try reader.location() }, severity: severity)
    }

    public mutating func stamp() throws(Malformed) -> FileStamp {
        FileStamp(size: try int64(), inode: try uint64(), modified: try int64(), changed: try int64())
    }
}
