import CQrencode
import Foundation

/// A QR code symbol as libqrencode makes it: a square of dark and light modules, without the
/// quiet zone around it (whoever draws it adds that).
public struct QRCode: Sendable, Hashable {
    /// Modules on a side (21 for version 1, 4 more for each version after).
    public let size: Int
    /// Row by row, `true` for a dark module.
    private let modules: [Bool]

    /// Why a text has no QR code.
    public enum Failure: Error, Sendable, Hashable {
        /// More bytes than the largest symbol (version 40) holds at this correction level.
        case tooLong(bytes: Int, limit: Int)
        /// libqrencode failed for another reason (its errno, as text).
        case encoder(String)
    }

    /// The symbol for `text`'s UTF-8 bytes in 8-bit mode, at error correction level M (15% of
    /// the symbol may be lost), the smallest version that holds them. 8-bit data rather than a
    /// C string: every byte is encoded, none ends the text early. A text beyond ASCII starts with
    /// the ECI that names UTF-8 (26): without it, readers guess the bytes' encoding (zbar takes
    /// Japanese UTF-8 for Shift JIS).
    public init(encoding text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.byteLimit else { throw .tooLong(bytes: bytes.count, limit: Self.byteLimit) }
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { throw .encoder(String(cString: strerror(errno))) }
        defer { QRinput_free(input) }
        errno = 0
        let appended = bytes.allSatisfy { $0 < 0x80 } ? 0 : QRinput_appendECIheader(input, Self.utf8ECI)
        guard appended == 0, bytes.withUnsafeBufferPointer({ QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress) }) == 0,
              let symbol = QRcode_encodeInput(input) else {
            let code = errno
            if code == ERANGE { throw .tooLong(bytes: bytes.count, limit: Self.byteLimit) }
            throw .encoder(String(cString: strerror(code)))
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour; the other bits say what the module is for.
        modules = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width).map { $0 & 1 == 1 }
    }

    /// The ECI assignment number of UTF-8.
    static let utf8ECI: UInt32 = 26

    /// What version 40 holds in 8-bit mode at level M (ISO/IEC 18004, table 7).
    public static let byteLimit = 2331

    /// Each row's runs of dark modules, as (row, first column, length), top to bottom and left
    /// to right: what a drawing needs, one rectangle a run.
    public var darkRuns: [(row: Int, column: Int, length: Int)] {
        var runs: [(row: Int, column: Int, length: Int)] = []
        for row in 0..<size {
            var column = 0
            while column < size {
                guard modules[row * size + column] else { column += 1; continue }
                let start = column
                while column < size, modules[row * size + column] { column += 1 }
                runs.append((row, start, column - start))
            }
        }
        return runs
    }
}
