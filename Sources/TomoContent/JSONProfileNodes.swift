import TomoCore
import TomoYAML

/// A `.json` profile as YAML nodes, so one validator serves both formats.
///
/// JSONParser checks the syntax (its errors carry line and column). JSON is YAML 1.2, so the
/// checked text then goes through libyaml for nodes that know their line and column; libyaml
/// implements YAML 1.1 and refuses a few valid JSON texts (surrogate-pair escapes such as
/// `\ud83d\ude00`, which Python's json.dumps writes for emoji, or a tab before the opening
/// brace), and those fall back to nodes that all point at the top of the file.
enum JSONProfileNodes {
    static func parse(_ bytes: [UInt8], file: String) throws(DiagnosticList) -> YAMLNode {
        if let problem = TextChecks.textProblem(in: bytes, file: file) { throw DiagnosticList([problem]) }
        let value: JSONValue
        do {
            // A byte order mark, which some editors put first, is read past by both parsers.
            value = try JSONParser.parse(bytes: bytes, file: file)
        } catch {
            throw DiagnosticList([error])
        }
        if let located = try? YAMLParser.parse(bytes, file: file) { return located }
        return node(value, at: SourceLocation(file: file, line: 1, column: 1))
    }

    private static func node(_ value: JSONValue, at location: SourceLocation) -> YAMLNode {
        switch value {
        case .null: YAMLNode(.scalar("null", .plain), at: location)
        case .bool(let flag): YAMLNode(.scalar(flag ? "true" : "false", .plain), at: location)
        case .int(let number): YAMLNode(.scalar(String(number), .plain), at: location)
        case .double(let number): YAMLNode(.scalar(String(number), .plain), at: location)
        case .string(let text): YAMLNode(.scalar(text, .doubleQuoted), at: location)
        case .array(let elements): YAMLNode(.sequence(elements.map { node($0, at: location) }), at: location)
        case .object(let members):
            // JSONValue objects have no order; sorted keys keep messages stable.
            YAMLNode(.mapping(members.keys.sorted().compactMap { key in
                members[key].map { YAMLPair(key: key, keyLocation: location, value: node($0, at: location)) }
            }), at: location)
        }
    }
}
