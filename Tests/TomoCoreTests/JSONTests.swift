import Testing
@testable import TomoCore

@Suite struct JSONTests {
    @Test func keepsIntegersAndDecimalsApart() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": 1.5, "c": 2.0, "d": -0, "e": 1e2}"#, file: "t.json")
        #expect(value["a"] == .int(1))
        #expect(value["b"] == .double(1.5))
        #expect(value["c"] == .double(2.0))
        #expect(JSONWriter.string(.double(2.0)) == "2")
        #expect(JSONWriter.string(.double(1.5)) == "1.5")
        #expect(value["e"] == .double(100))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["a\"b\\c\/d\n", "\u00e9\ud83d\ude00", "日本語"]"#, file: "t.json")
        #expect(value == .array([.string("a\"b\\c/d\n"), .string("é😀"), .string("日本語")]))
    }

    @Test func writesSortedKeysSoOutputIsStable() {
        let value = JSONValue.object(["b": .int(1), "a": .array([.string("x\ty"), .null]), "c": .object([:])])
        #expect(JSONWriter.string(value, style: .compact) == #"{"a":["x\ty",null],"b":1,"c":{}}"#)
        #expect(JSONWriter.string(value, style: .pretty) == "{\n  \"a\": [\n    \"x\\ty\",\n    null\n  ],\n  \"b\": 1,\n  \"c\": {}\n}")
    }

    @Test func roundTripsThroughTheWriter() throws {
        let text = #"{"handle":"alice","likes":[1,2,3],"name":"Ａlice \"A\"","ok":true,"score":0.25}"#
        let value = try JSONParser.parse(text, file: "t.json")
        #expect(JSONWriter.string(value, style: .compact) == text)
    }

    @Test(arguments: [
        ("{\"a\": 1,\n  \"a\": 2}", "t.json:2:3: duplicate key \"a\" in this object: keep only one"),
        ("{\"a\": 1,\n}", "t.json:2:1: expected a key in double quotes: write \"key\": value, with no comma after the last one"),
        ("[1, 2", "t.json:1:1: unexpected end of the file: the array opened here is not closed"),
        ("{\"a\": tru}", "t.json:1:7: unexpected text: expected true (JSON writes true, false and null in lower case, and text in double quotes)"),
        ("\n\n  [01]", "t.json:3:4: 01: numbers may not start with 0: write 1 (or put the value in quotes to keep it as text)"),
        ("[-007.5e1]", "t.json:1:2: -007.5e1: numbers may not start with 0: write -7.5e1 (or put the value in quotes to keep it as text)"),
        ("[01e]", "t.json:1:2: 01e: numbers may not start with 0: write the number without them (or put the value in quotes to keep it as text)"),
        ("\"ab", "t.json:1:1: unexpected end of the file: the string opened here is not closed"),
        ("[1] x", "t.json:1:5: unexpected text after the JSON value: a file holds one value, remove what follows it"),
        ("", "t.json:1:1: unexpected end of the file: a value is missing"),
    ])
    func reportsErrorsWithLineAndColumn(input: String, message: String) {
        #expect(throws: Diagnostic.self) { try JSONParser.parse(input, file: "t.json") }
        do {
            _ = try JSONParser.parse(input, file: "t.json")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array("[\"ok\", \"".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
        #expect(throws: Diagnostic.self) { try JSONParser.parse(bytes: bytes, file: "t.json") }
    }

    @Test func refusesRunawayNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: Diagnostic.self) { try JSONParser.parse(deep, file: "t.json") }
    }
}
