import TomoCore

/// The keys one kind of mapping in a content file takes (site.yaml, a profile, an item, a
/// post's or a page's front matter). The readers take the keys they know from these tables, so
/// an unknown key is reported against them, and `ContentSchema` writes the JSON Schemas editors
/// check files with from the same tables: a key the loader reads is a key the schema describes.
public struct KeyTable: Sendable {
    /// How messages name the mapping: "a profile", "an item".
    public var what: String
    public let keys: [KeySpec]
    /// The keys' names, looked up once per mapping read (the links table has thousands).
    public let nameSet: Set<String>
    /// At least one of these keys must be there (none: no such rule).
    public var needsOneOf: [String]
    /// What an unknown key's message says when no key is close to it; nil: the list of keys
    /// (a table of thousands, such as `links`, says where they are listed instead).
    public var unknownKeyFix: String?

    public init(_ what: String, _ keys: [KeySpec], needsOneOf: [String] = [], unknownKeyFix: String? = nil) {
        self.what = what
        self.keys = keys
        nameSet = Set(keys.map(\.key))
        self.needsOneOf = needsOneOf
        self.unknownKeyFix = unknownKeyFix
    }

    public var names: [String] { keys.map(\.key) }

    /// This table with one more key.
    public func adding(_ spec: KeySpec) -> KeyTable {
        KeyTable(what, keys + [spec], needsOneOf: needsOneOf, unknownKeyFix: unknownKeyFix)
    }
}

/// One key: what its value must be, what it is for, and what the loader uses without it.
public struct KeySpec: Sendable {
    public var key: String
    public var value: ValueRule
    /// One sentence for a person (the schema's `description`, shown by editors on hover).
    public var summary: String
    public var isRequired: Bool
    /// What the loader uses when the key is absent (the schema's `default`).
    public var defaultValue: JSONValue?

    public init(_ key: String, _ value: ValueRule, _ summary: String, required: Bool = false, default defaultValue: JSONValue? = nil) {
        self.key = key
        self.value = value
        self.summary = summary
        self.isRequired = required
        self.defaultValue = defaultValue
    }
}

/// What a value must be, as the readers check it.
public indirect enum ValueRule: Sendable {
    /// Any scalar but null, kept as written: `name: 1984` is the text "1984".
    case text
    /// `text` with one character that is not white space (`isBlank`): a name or a title.
    case nonBlankText
    /// Markdown text.
    case markdown
    case wholeNumber(ClosedRange<Int>)
    /// `true` or `false` (not YAML 1.1's `yes` or `on`).
    case boolean
    /// One of these words, written exactly.
    case word([String])
    /// An item colour: one of `ItemColor.names` in any letter case, or `#rrggbb`.
    case color
    /// A colour as `color` takes it, or a list of two of them (a gradient from the first to the second).
    case gradient
    /// A link a page may hold: http, https or mailto (`URLRules.linkProblem`).
    case link
    /// The site's own address: http or https (`URLRules.siteAddressProblem`).
    case siteAddress
    /// An e-mail address, or a `mailto:` URL of one (`URLRules.emailAddress`).
    case email
    /// A date as `WrittenDate` reads it.
    case date
    /// A BCP 47 language tag (`LanguageTag`).
    case languageTag
    /// A path relative to a folder, to a file that must exist; with one of `extensions` (any
    /// letter case) when there are any.
    case file(extensions: [String])
    case list(ValueRule, minItems: Int)
    case mapping(KeyTable)
    /// Any one of these (a `links:` mapping or list).
    case either([ValueRule])
    /// A mapping of any keys and values (`params:`, a theme's own settings).
    case anyMapping
}
