import Testing
import TomoCore

/// Cache lines are read field by field; a damaged one gives nil fields, never a trap.
@Suite struct LineCursorTests {
    /// The fields `integer`, `hexadecimal`, `word` and `rest` read from the first line of `text`.
    func fields(_ text: String) -> (Int64?, UInt64?, String, String) {
        var result: (Int64?, UInt64?, String, String) = (nil, nil, "", "")
        _ = LineCursor.forEachLine(of: Array(text.utf8)) { line in
            result = (line.integer(), line.hexadecimal(), line.word(), line.rest())
            return false
        }
        return result
    }

    @Test func numbersThatFitAreRead() {
        #expect(fields("9223372036854775807 ff w rest of it") == (9_223_372_036_854_775_807, 255, "w", "rest of it"))
        #expect(fields("-42 0 w r").0 == -42)
    }

    @Test(arguments: ["9223372036854775808", "9999999999999999999", "99999999999999999999", "-99999999999999999999", "12a", "-", "1e309", "-0x1"])
    func aNumberThatDoesNotFitOrIsNoneIsNil(number: String) {
        #expect(fields("\(number) ff w r").0 == nil)
    }

    @Test(arguments: ["1", "1 ", "1 f", "1 ff", "1 ff w", "1 fffffffffffffffff w r", "1 FF w r", "\u{FF}\u{00}"])
    func aShortOrDamagedLineReadsToItsEndWithoutATrap(line: String) {
        // Any field may be missing; none may be read from beyond the line.
        let (_, _, word, rest) = fields(line + "\nnext line")
        #expect(!word.contains("next") && !rest.contains("next"))
        _ = fields(line)
    }
}
