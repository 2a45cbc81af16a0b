import Foundation
import TomoTestSupport

/// Damage a fuzzer does to the files of a small valid site: boundary dates and numbers, deep
/// nesting, control characters and invalid UTF-8, truncation, huge and empty values, duplicate
/// keys, templates that recurse. Each mutation is drawn from a seeded generator and described,
/// so a failing case can say what it did.
struct SiteMutations {
    var random: SplitMix64
    /// What was done, one entry per mutation, for the failure message.
    private(set) var log: [String] = []

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    enum Kind { case yaml, json, markdown, template, cache }

    static func kind(of path: String) -> Kind {
        if path.hasPrefix(".tomo-cache/") { return .cache }
        if path.hasSuffix(".json") { return .json }
        if path.hasSuffix(".mustache") { return .template }
        if path.hasSuffix(".md") { return .markdown }
        return .yaml
    }

    // MARK: Values at the edges

    static let dates = [
        "0000-01-01", "0001-01-01", "1581-12-31", "1582-10-04", "1582-10-15", "2262-04-11", "2262-04-12",
        "2262-04-11T23:47:16.854775808Z", "2999-12-31", "9999-12-31", "9999-12-31T23:59:59.999999999-18:00",
        "0000-00-00", "2026-02-30", "2026-05-01T24:00:00Z", "2026-05-01T12:00:00+99:00", "+2026-05-01", "2026-5-1",
    ]
    static let numbers = [
        "0", "-0", "1e309", "-1e309", ".nan", ".inf", "-.inf", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "1234567890123456789", "12345678901234567890",
        "0x7fffffffffffffff", "0o777", "1_000", "3.0", "-1", "1e-400", "0.1e1",
    ]
    static let yamlScalars = [
        "", "~", "null", "[]", "{}", "''", "\"\"", "\"\\e[31mred\\e]0;title\\a\"", "\"\\0\"", "\"\\u0000\"", "\"\\x9b2J\"",
        "\"a\\u202Eb\"", "!!binary aGk=", "&anchor x", "*anchor", "|\n  block\n  text", ">-\n  folded", "#private",
        "javascript:alert(1)", "\"mailto:mailto:a@b\"", "http://[::1", "https://a:b@x.example:99999/?q#f",
        "pruple", "\"#gggggg\"", "\"#fff\"", "public", "followers", "private", "hidden", "true", "no", "../../etc/passwd",
        "ana/icon.jpg", "x/icon.jpg/", "/dev/zero", "ana/../../../outside.jpg", "\"\\t\\r\\n\"",
    ]
    static let jsonValues = [
        "null", "true", "\"\"", "{}", "[]", "\"\\u0000\"", "\"\\u001b[2J\"", "\"\\ud800\"", "\"\\uDFFF\\uD800\"",
        "\"\u{1B}raw\"", "\"\u{9B}c1\"", "\"a\\\"b\"", "-0", "1e309", "-1e309", "9223372036854775808", "12345678901234567890",
        "1234567890123456789", "0.000000000000000000000000000001", "[" + String(repeating: "[", count: 40) + String(repeating: "]", count: 41),
    ]
    static let keys = [
        "name", "bio", "icon", "header", "links", "items", "itemColor", "email", "showEmail", "text", "url", "color",
        "from", "until", "hidden", "date", "photo", "alt", "visibility", "title", "baseURL", "homeUsers", "pageSize",
        "language", "description", "contact", "images", "widths", "website", "twitter", "location",
    ]
    /// Bytes a text editor would not write: control characters, overlong and surrogate encodings,
    /// code points past U+10FFFF, stray continuation bytes, a byte-order mark, a bidi override.
    static let strangeBytes: [[UInt8]] = [
        [0x00], [0x1B, 0x5B, 0x32, 0x4A], [0x07], [0x08], [0x0D], [0x7F], [0xC2, 0x9B], [0xFF], [0xFE], [0xC0, 0x80],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xEF, 0xBB, 0xBF], [0xE2, 0x80, 0xAE], [0xF0, 0x9F],
    ]
    static let templateSnippets = [
        "{{>note}}", "{{>item}}", "{{>*text}}", "{{<layout}}{{/layout}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{$b}}x{{/b}}",
        "{{=<% %>=}}", "{{{", "}}}", "{{", "{{!", "{{&text}}", "{{.}}", "{{ }}", "{{a b}}", "{{#text}}{{>note}}{{>note}}{{/text}}",
        "{{>../../content/site}}", "{{>/etc/passwd}}", "{{#items}}{{#items}}{{#items}}{{/items}}{{/items}}{{/items}}",
    ]

    // MARK: Mutations

    /// `bytes` of the file at `path` after one mutation fitting its kind.
    mutating func mutate(_ bytes: [UInt8], path: String) -> [UInt8] {
        let kind = Self.kind(of: path)
        var choices: [(String, (inout SiteMutations, [UInt8]) -> [UInt8])] = [
            ("truncate", { m, b in m.truncate(b) }),
            ("strange bytes", { m, b in m.insertStrangeBytes(b) }),
            ("delete a line", { m, b in m.deleteLine(b) }),
            ("double a line", { m, b in m.doubleLine(b) }),
            ("swap lines", { m, b in m.swapLines(b) }),
            ("empty", { _, _ in [] }),
            ("number", { m, b in m.replaceNumber(b) }),
        ]
        switch kind {
        case .yaml, .markdown:
            choices += [
                ("yaml value", { m, b in m.replaceYAMLValue(b) }),
                ("yaml value", { m, b in m.replaceYAMLValue(b) }),
                ("date", { m, b in m.replaceYAMLValue(b, with: m.random.pick(Self.dates)) }),
                ("duplicate key", { m, b in m.insertLine(b, "\(m.random.pick(Self.keys)): \(m.random.pick(Self.yamlScalars + Self.dates + Self.numbers))") }),
                ("deep nesting", { m, b in m.insertLine(b, "\(m.random.pick(Self.keys)): \(Self.nested(m.random.pick([150, 199, 200, 201, 5000, 100_000]), json: m.random.chance(0.5)))") }),
                ("huge value", { m, b in m.replaceYAMLValue(b, with: "\"" + String(repeating: m.random.pick(["x", "日", "\\e", "a b "]), count: m.random.pick([10_000, 300_000])) + "\"") }),
                ("item", { m, b in m.insertLine(b, "items:\n  - text: Edge\n    from: \(m.random.pick(Self.dates))\n    until: \(m.random.pick(Self.dates))") }),
            ]
        case .json:
            choices += [
                ("json value", { m, b in m.replaceJSONValue(b) }),
                ("json value", { m, b in m.replaceJSONValue(b) }),
                ("json deep nesting", { m, b in m.replaceJSONValue(b, with: Self.nested(m.random.pick([100, 511, 512, 513, 100_000]), json: true)) }),
                ("json duplicate key", { m, b in m.duplicateJSONKey(b) }),
                ("json huge string", { m, b in m.replaceJSONValue(b, with: "\"" + String(repeating: "x", count: 300_000) + "\"") }),
            ]
        case .template:
            choices += [
                ("template tag", { m, b in m.insert(b, Array(m.random.pick(Self.templateSnippets).utf8)) }),
                ("template tag", { m, b in m.insert(b, Array(m.random.pick(Self.templateSnippets).utf8)) }),
                ("deep sections", { m, b in
                    let depth = m.random.pick([99, 100, 101, 30_000])
                    return m.insert(b, Array((String(repeating: "{{#text}}", count: depth) + String(repeating: "{{/text}}", count: depth)).utf8))
                }),
                ("fan-out", { m, b in m.insert(b, Array(String(repeating: "{{>note}}", count: m.random.pick([2, 10])).utf8)) }),
            ]
        case .cache:
            choices += [
                ("flip a byte", { m, b in m.flipByte(b) }),
                ("flip a byte", { m, b in m.flipByte(b) }),
                ("garbage", { m, b in m.insert(b, (0..<m.random.pick([1, 20, 300])).map { _ in UInt8.random(in: 0...255, using: &m.random) }) }),
            ]
        }
        let (name, mutation) = random.pick(choices)
        log.append("\(path): \(name)")
        return mutation(&self, bytes)
    }

    /// `[[[…]]]` (or a YAML block of nested mappings) `depth` levels deep.
    static func nested(_ depth: Int, json: Bool) -> String {
        json ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            : "{" + String(repeating: "a: {", count: depth) + String(repeating: "}", count: depth + 1)
    }

    private func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }

    private func joined(_ lines: [[UInt8]]) -> [UInt8] {
        Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    mutating func truncate(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
    }

    mutating func insert(_ bytes: [UInt8], _ piece: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.insert(contentsOf: piece, at: Int.random(in: 0...bytes.count, using: &random))
        return bytes
    }

    mutating func insertStrangeBytes(_ bytes: [UInt8]) -> [UInt8] {
        insert(bytes, random.pick(Self.strangeBytes))
    }

    mutating func flipByte(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var bytes = bytes
        bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
        return bytes
    }

    mutating func deleteLine(_ bytes: [UInt8]) -> [UInt8] {
        var all = lines(bytes)
        guard all.count > 1 else { return [] }
        all.remove(at: Int.random(in: 0..<all.count, using: &random))
        return joined(all)
    }

    mutating func doubleLine(_ bytes: [UInt8]) -> [UInt8] {
        var all = lines(bytes)
        let index = Int.random(in: 0..<all.count, using: &random)
        all.insert(all[index], at: index)
        return joined(all)
    }

    mutating func swapLines(_ bytes: [UInt8]) -> [UInt8] {
        var all = lines(bytes)
        all.swapAt(Int.random(in: 0..<all.count, using: &random), Int.random(in: 0..<all.count, using: &random))
        return joined(all)
    }

    mutating func insertLine(_ bytes: [UInt8], _ line: String) -> [UInt8] {
        var all = lines(bytes)
        all.insert(Array(line.utf8), at: Int.random(in: 0...all.count, using: &random))
        return joined(all)
    }

    /// A run of digits replaced by a number at the edges.
    mutating func replaceNumber(_ bytes: [UInt8]) -> [UInt8] {
        let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
        let starts = bytes.indices.filter { isDigit(bytes[$0]) && ($0 == 0 || !isDigit(bytes[$0 - 1])) }
        guard !starts.isEmpty else { return bytes }
        let start = random.pick(starts)
        let end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.count
        var bytes = bytes
        bytes.replaceSubrange(start..<end, with: Array(random.pick(Self.numbers).utf8))
        return bytes
    }

    /// The value of a `key: value` line replaced (a random edge value when `with` is nil).
    mutating func replaceYAMLValue(_ bytes: [UInt8], with value: String? = nil) -> [UInt8] {
        var all = lines(bytes)
        let candidates = all.indices.filter { all[$0].contains(UInt8(ascii: ":")) }
        guard !candidates.isEmpty else { return insertLine(bytes, "name: \(value ?? "x")") }
        let index = random.pick(candidates)
        let colon = all[index].firstIndex(of: UInt8(ascii: ":")) ?? 0
        let replacement = value ?? random.pick(Self.yamlScalars + Self.dates + Self.numbers)
        all[index] = Array(all[index][...colon]) + Array(" \(replacement)".utf8)
        return joined(all)
    }

    /// A JSON string, number, `true`, `false` or `null` replaced by an edge value.
    mutating func replaceJSONValue(_ bytes: [UInt8], with value: String? = nil) -> [UInt8] {
        let starts = bytes.indices.filter { [UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: ",")].contains(bytes[$0]) }
        guard let separator = starts.isEmpty ? nil : random.pick(starts) else { return bytes }
        var start = separator + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\n") { start += 1 }
        guard start < bytes.count else { return bytes }
        var end = start
        if bytes[start] == UInt8(ascii: "\"") {
            end += 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            end = min(end + 1, bytes.count)
        } else {
            while end < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "\n"), UInt8(ascii: "{"), UInt8(ascii: "[")].contains(bytes[end]) { end += 1 }
        }
        var bytes = bytes
        bytes.replaceSubrange(start..<end, with: Array((value ?? random.pick(Self.jsonValues + Self.numbers)).utf8))
        return bytes
    }

    /// A member of a JSON object written twice, with another value the second time.
    mutating func duplicateJSONKey(_ bytes: [UInt8]) -> [UInt8] {
        guard let brace = bytes.indices.filter({ bytes[$0] == UInt8(ascii: "{") }).randomElement(using: &random) else { return bytes }
        var bytes = bytes
        bytes.insert(contentsOf: Array("\"\(random.pick(Self.keys))\": \(random.pick(Self.jsonValues)), ".utf8), at: brace + 1)
        return bytes
    }
}
