import TomoCore

/// One node of a YAML document, with the place it starts in its file.
///
/// Mappings keep their keys in file order, so messages and models can follow what the person wrote.
public struct YAMLNode: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case scalar(String, YAMLScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var kind: Kind
    public var location: SourceLocation
    /// For a parsed scalar, where its text ends (after the closing quote of a quoted one), so a
    /// tool can replace exactly the value it read; nil for other nodes and made-up ones.
    public var end: SourceLocation?
    /// The explicit tag (`!!str` arrives as `tag:yaml.org,2002:str`), when the file gave one.
    public var tag: String?

    public init(_ kind: Kind, at location: SourceLocation, end: SourceLocation? = nil, tag: String? = nil) {
        self.kind = kind
        self.location = location
        self.end = end
        self.tag = tag
    }

    /// The scalar's resolved value, or nil for a sequence or mapping.
    public var scalar: YAMLScalar? {
        guard case .scalar(let text, let style) = kind else { return nil }
        return YAMLScalar.resolve(text, style: style, tag: tag)
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let elements) = kind { return elements }
        return nil
    }

    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// What this node is, for messages: "a string", "a list", "true/false" …
    public var typeDescription: String {
        switch kind {
        case .sequence: "a list"
        case .mapping: "a mapping (key: value lines)"
        case .scalar: scalar?.typeDescription ?? "a value"
        }
    }
}

/// A key and its value; keys are scalars (the parser rejects any other key).
public struct YAMLPair: Sendable, Hashable {
    /// The key's text, as written.
    public var key: String
    public var keyLocation: SourceLocation
    public var value: YAMLNode

    public init(key: String, keyLocation: SourceLocation, value: YAMLNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// How a scalar was written: only plain scalars are resolved to numbers, booleans and null.
public enum YAMLScalarStyle: Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    /// `|` block: line breaks kept.
    case literal
    /// `>` block: lines folded into one.
    case folded
}
