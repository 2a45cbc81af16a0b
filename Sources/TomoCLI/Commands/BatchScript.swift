import TomoCore

/// The lines of a `tomo batch` file, split into words as a shell would split a command line:
/// blanks separate words, `"…"` and `'…'` quote, a backslash escapes the next character outside
/// quotes and, inside double quotes, only `$`, `` ` ``, `"` and `\` (elsewhere it stays, as a
/// POSIX shell keeps it: `"C:\new"` is `C:\new`), and `#` at the start of a word comments out
/// the rest of the line. Blank and comment-only lines are skipped; a leading `tomo` word is
/// dropped, so a file of full `tomo …` command lines works as it is. A byte order mark before the first line is left out.
struct BatchScript {
    /// How messages name the input: the path as given, or `<stdin>` for `-`.
    let name: String
    let bytes: [UInt8]

    /// A line that cannot be split into words.
    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    /// Calls `body` with each command line's number (1-based) and words, in order, stopping at
    /// the first error (`body`'s, or a line that does not split) together with its line number.
    func forEachCommand(_ body: (_ line: Int, _ words: [String]) throws -> Void) throws(BatchLineError) {
        var number = 0
        // A byte order mark, which some editors save first, is read past.
        var start = ByteOrderMark.length(in: bytes)
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            do {
                var words = try Self.words(bytes[start..<end])
                if words.count > 1, words[0] == "tomo" { words.removeFirst() }
                if !words.isEmpty { try body(number, words) }
            } catch {
                throw BatchLineError(file: name, line: number, error)
            }
            start = end + 1
        }
    }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
    private static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\"), hash = UInt8(ascii: "#")
    /// What a backslash escapes inside double quotes, as in a POSIX shell.
    private static let escapedInDoubleQuotes: Set<UInt8> = [UInt8(ascii: "$"), UInt8(ascii: "`"), doubleQuote, backslash]

    static func words(_ line: ArraySlice<UInt8>) throws(SyntaxError) -> [String] {
        var words: [String] = []
        var index = line.startIndex
        func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == carriageReturn }
        while true {
            while index < line.endIndex, isBlank(line[index]) { index += 1 }
            if index == line.endIndex || line[index] == hash { return words }
            var word: [UInt8] = []
            while index < line.endIndex, !isBlank(line[index]) {
                let byte = line[index]
                index += 1
                switch byte {
                case singleQuote:
                    guard let close = line[index...].firstIndex(of: singleQuote) else {
                        throw SyntaxError(description: "unterminated ' quote")
                    }
                    word += line[index..<close]
                    index = close + 1
                case doubleQuote:
                    while true {
                        guard index < line.endIndex else { throw SyntaxError(description: "unterminated \" quote") }
                        let quoted = line[index]
                        index += 1
                        if quoted == doubleQuote { break }
                        if quoted == backslash, index < line.endIndex, Self.escapedInDoubleQuotes.contains(line[index]) {
                            word.append(line[index])
                            index += 1
                        } else {
                            word.append(quoted)
                        }
                    }
                case backslash:
                    guard index < line.endIndex else { throw SyntaxError(description: "a backslash ends the line") }
                    word.append(line[index])
                    index += 1
                default:
                    word.append(byte)
                }
            }
            // Never repaired: a byte that is not UTF-8 would reach a profile as U+FFFD.
            guard let text = String(validating: word, as: UTF8.self) else {
                throw SyntaxError(description: "\(String(decoding: word, as: UTF8.self).quotedShortened()) is not UTF-8 text (� marks what is not): save the batch file as UTF-8")
            }
            words.append(text)
        }
    }
}

/// The first failing line of a batch: `FILE:LINE: message`.
struct BatchLineError: Error, CustomStringConvertible {
    var file: String
    var line: Int
    var message: String

    init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// Words the line's error as the command line would, usage included.
    init(file: String, line: Int, _ error: any Error) {
        let message = switch error {
        case let usage as UsageError: usage.message + (usage.usage.map { " (usage: \($0))" } ?? "")
        default: "\(error)"
        }
        self.init(file: file, line: line, message: message)
    }

    var description: String { "\(file):\(line): \(message)" }
}
