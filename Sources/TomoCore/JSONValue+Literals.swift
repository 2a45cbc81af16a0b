/// Literals make page views read like the data they are:
/// `["name": "Alice", "links": [], "count": 3]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        // A plain loop: `Dictionary(_:uniquingKeysWith:)` costs a closure call per key, and
        // page views build thousands of these per rebuild.
        var object = [String: JSONValue](minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }

    /// A string, or null when there is none.
    public init(_ text: String?) {
        self = text.map(JSONValue.string) ?? .null
    }
}
