import TomoCore

/// The JSON Schemas (draft 2020-12) of the content files, written from the readers' key tables
/// (`KeyTable`): what an editor checks while a file is typed is what `tomo check` reads. A
/// schema says what it can (keys, types, words, ranges, the shape of URLs, colours and dates);
/// the rules no schema can state (a file that must exist, a date that is no real day, …) are
/// `tomo check`'s alone.
public enum ContentSchema {
    /// One schema file.
    public struct Document: Sendable {
        /// `site.schema.json`
        public var fileName: String
        /// The content files it describes, as a glob relative to the site (`content/users/*.yaml`);
        /// nil for front matter, which editors do not check against a schema by file name.
        public var files: String?
        public var title: String
        var table: KeyTable

        /// The schema as JSON.
        public var json: JSONValue {
            var schema = ContentSchema.object(table)
            schema["$schema"] = .string("https://json-schema.org/draft/2020-12/schema")
            schema["$id"] = .string(fileName)
            schema["title"] = .string(title)
            schema["$defs"] = .object(ContentSchema.definitions)
            return .object(schema)
        }
    }

    public static let site = Document(fileName: "site.schema.json", files: ContentPath.siteConfigFile, title: "Tomo site settings (content/site.yaml)", table: SiteConfigReader.table)
    public static let profile = Document(fileName: "profile.schema.json", files: "\(ContentPath.usersFolder)/*.yaml", title: "Tomo profile (content/users/<handle>.yaml)", table: ProfileReader.table)
    public static let jsonProfile = Document(fileName: "profile-json.schema.json", files: "\(ContentPath.usersFolder)/*.json", title: "Tomo profile in JSON (content/users/<handle>.json)", table: ProfileReader.jsonTable)
    public static let post = Document(fileName: "post.schema.json", files: nil, title: "Tomo post front matter (content/posts/<handle>/<name>.md)", table: PostReader.table)
    public static let page = Document(fileName: "page.schema.json", files: nil, title: "Tomo page front matter (content/pages/<name>.md)", table: PageReader.table)

    public static let documents = [site, profile, jsonProfile, post, page]

    private static func object(_ table: KeyTable) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        for spec in table.keys {
            var property = schema(of: spec.value)
            property["description"] = .string(spec.summary)
            if let value = spec.defaultValue { property["default"] = value }
            properties[spec.key] = .object(property)
        }
        var schema: [String: JSONValue] = [
            "type": "object",
            "description": .string("The keys of \(table.what)."),
            "properties": .object(properties),
            "additionalProperties": false,
        ]
        let required = table.keys.filter(\.isRequired).map { JSONValue.string($0.key) }
        if !required.isEmpty { schema["required"] = .array(required) }
        if !table.needsOneOf.isEmpty {
            schema["anyOf"] = .array(table.needsOneOf.map { ["required": [.string($0)]] })
        }
        return schema
    }

    private static func schema(of rule: ValueRule) -> [String: JSONValue] {
        switch rule {
        case .text, .markdown:
            // The readers keep a number or a boolean as the text it is written as.
            return ["type": ["string", "number", "boolean"]]
        case .nonBlankText:
            // The pattern applies to a string only: a number or a boolean is never blank.
            return ["type": ["string", "number", "boolean"], "pattern": .string(String.notBlankPattern)]
        case .wholeNumber(let range):
            return ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
        case .boolean:
            return ["type": "boolean"]
        case .word(let words):
            return ["type": "string", "enum": .array(words.map { .string($0) })]
        case .color:
            // The names, for an editor's completion; the pattern, for any letter case.
            return ["type": "string", "anyOf": [
                ["enum": .array(ItemColor.names.map { .string($0) })],
                ["pattern": .string("^(?:\(ItemColor.names.map(anyCase).joined(separator: "|"))|#[0-9A-Fa-f]{6})$")],
            ]]
        case .gradient:
            let color = JSONValue.object(schema(of: .color))
            return ["anyOf": [color, ["type": "array", "items": color, "minItems": 2, "maxItems": 2]]]
        case .link:
            // Said once under `$defs`: a profile has a key for each of thousands of brands.
            return ["$ref": "#/$defs/link"]
        case .siteAddress:
            // maxLength counts characters, the rule bytes with the final `/`: the same limit for
            // an ASCII address that ends in `/`, a looser one otherwise (a finer rule only
            // `tomo check` checks).
            return ["type": "string", "format": "uri", "maxLength": .int(URLRules.siteAddressByteLimit), "pattern": .string("^\(anyCase("http"))\(anyCase("s"))?://[^/?#@\(notInAddresses)]+(?:/[^?#\(notInAddresses)]*)?$")]
        case .email:
            return ["type": "string", "pattern": .string("^(?:\(anyCase("mailto")):)?\(emailPattern)$")]
        case .languageTag:
            return ["type": "string", "pattern": .string(LanguageTag.pattern)]
        case .date:
            return ["type": "string", "pattern": .string(datePattern)]
        case .file(let extensions):
            guard !extensions.isEmpty else { return ["type": "string"] }
            return ["type": "string", "pattern": .string("\\.(?:\(extensions.map(anyCase).joined(separator: "|")))$")]
        case .list(let element, let minItems):
            var schema: [String: JSONValue] = ["type": "array", "items": .object(schema(of: element))]
            if minItems > 0 { schema["minItems"] = .int(minItems) }
            return schema
        case .mapping(let table):
            return object(table)
        case .either(let rules):
            return ["anyOf": .array(rules.map { .object(schema(of: $0)) })]
        case .anyMapping:
            return ["type": "object"]
        }
    }

    /// The rules that keys share by reference, which every document carries.
    static let definitions: [String: JSONValue] = [
        "link": ["type": "string", "format": "uri", "pattern": .string("^(?:\(anyCase("http"))\(anyCase("s"))?://(?:[^/?#@\(notInAddresses)]*@)?[^/?#@:\(notInAddresses)][^/?#@\(notInAddresses)]*(?:[/?#][^\(notInAddresses)]*)?|\(anyCase("mailto")):\(emailPattern)(?:\\?[^\(notInAddresses)]*)?)$")],
    ]

    /// What an http(s) address may not hold raw (`URLRules`), as a pattern's character class:
    /// white space, quotes, `<>` and `\\ ^ ` { | }`.
    private static let notInAddresses = "\\s\"<>\\\\^`{|}"

    /// `http` as `[Hh][Tt][Tt][Pp]`: the schema's patterns have no flag for letter case.
    private static func anyCase(_ word: String) -> String {
        word.map { letter in
            letter.isLetter ? "[\(letter.uppercased())\(letter.lowercased())]" : String(letter)
        }.joined()
    }

    /// `URLRules.isEmailAddress`: one `@`, none of the characters that change a mailto: URL,
    /// a dotted domain of letters, digits and hyphens.
    private static let emailPattern: String = {
        let refused = "@\\s<>()\\[\\]\\\\,;:\"?#%"
        let label = "[-0-9A-Za-z\\u00AA-\\uFFFF]+"
        return "[^\(refused)]+@\(label)(?:\\.\(label))+"
    }()

    /// `WrittenDate.parse`'s forms: a day, then maybe a time (`T` or a space), seconds and a
    /// fraction, and `Z` or an offset up to 23:59 either way.
    /// Years 0001 to 9999 (0000 is refused, as `WrittenDate` refuses it).
    private static let datePattern = "^(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
        + "(?:[T ](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]+)?)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9]|:)?)?)?$"
}
