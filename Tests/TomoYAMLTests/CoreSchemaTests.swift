import Testing
@testable import TomoYAML

@Suite struct CoreSchemaTests {
    @Test(arguments: [
        ("true", YAMLScalar.bool(true)), ("False", .bool(false)), ("TRUE", .bool(true)),
        // YAML 1.1 booleans are plain strings in 1.2: "Norway problem" solved.
        ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")), ("off", .string("off")),
        ("~", .null), ("null", .null), ("", .null), ("NULL", .null),
        ("12", .int(12)), ("-7", .int(-7)), ("+3", .int(3)), ("0x1F", .int(31)), ("0o17", .int(15)),
        ("1.5e3", .float(1500)), (".5", .float(0.5)), ("-2.", .float(-2)), ("1e5", .float(100_000)),
        ("0x", .string("0x")), ("0x-1", .string("0x-1")), ("1_000", .string("1_000")),
        ("2026-05-01", .string("2026-05-01")), ("12:30", .string("12:30")), ("1.2.3", .string("1.2.3")),
        ("Tokyo", .string("Tokyo")),
    ])
    func plainScalarsResolveByTheCoreSchema(text: String, expected: YAMLScalar) {
        #expect(YAMLScalar.resolvePlain(text) == expected)
    }

    @Test func infinityAndNotANumber() {
        #expect(YAMLScalar.resolvePlain(".inf") == .float(.infinity))
        #expect(YAMLScalar.resolvePlain("-.Inf") == .float(-.infinity))
        guard case .float(let value) = YAMLScalar.resolvePlain(".nan") else {
            Issue.record("expected a float")
            return
        }
        #expect(value.isNaN)
    }

    @Test func quotedAndTaggedScalarsStayStrings() throws {
        let root = try YAMLParser.parse(Array("a: \"true\"\nb: '12'\nc: !!str 12\nd: 12\n".utf8), file: "t.yaml")
        let values = try #require(root.mapping).map(\.value.scalar)
        #expect(values == [.string("true"), .string("12"), .string("12"), .int(12)])
    }
}
