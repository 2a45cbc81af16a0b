import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// The schemas come from the loader's key tables: every key a schema lists is one the loader
/// reads (no "unknown key"), and a key it does not list is one the loader refuses, for every
/// kind of file and every nested mapping (links, items, images).
@Suite struct ContentSchemaTests {
    /// Where each schema's file goes in a site, and how a mapping of keys is written in it.
    static func file(of document: ContentSchema.Document) -> (path: String, wrap: (String) -> String) {
        switch document.fileName {
        case ContentSchema.site.fileName: ("content/site.yaml", { $0 })
        case ContentSchema.profile.fileName: ("content/users/alice.yaml", { $0 })
        case ContentSchema.jsonProfile.fileName: ("content/users/alice.json", { $0 })
        case ContentSchema.post.fileName: ("content/posts/alice/p.md", { "---\n\($0)---\n" })
        default: ("content/pages/about.md", { "---\n\($0)---\n" })
        }
    }

    /// `key: ~` lines for each key of `schema` (nested mappings and lists of mappings one
    /// level down), in YAML flow style so the same text is JSON once keys are quoted.
    static func members(of schema: JSONValue, extra: String?) -> [String] {
        var lines: [String] = []
        for (key, property) in schema["properties"]?.objectValue ?? [:] {
            if property["type"] == "object" {
                lines.append("\"\(key)\": {\(members(of: property, extra: extra).joined(separator: ", "))}")
            } else if property["type"] == "array", property["items"]?["type"] == "object" {
                lines.append("\"\(key)\": [{\(members(of: property["items"] ?? .null, extra: extra).joined(separator: ", "))}]")
            } else {
                lines.append("\"\(key)\": null")
            }
        }
        if let extra { lines.append("\"\(extra)\": null") }
        return lines
    }

    static func unknownKeyErrors(_ document: ContentSchema.Document, extra: String?) throws -> [Diagnostic] {
        let (path, wrap) = file(of: document)
        let body = members(of: document.json, extra: extra)
        let text = path.hasSuffix(".json") ? "{\(body.joined(separator: ", "))}\n" : body.map { $0 + "\n" }.joined()
        var files = [
            "content/users/alice.yaml": "name: Alice\n",
            "content/posts/alice/p.jpg": "not decoded by the loader",
        ]
        if path.hasSuffix(".json") { files["content/users/alice.yaml"] = nil }
        files[path] = wrap(text)
        return try SiteFixture(files).load().errors.filter { $0.message.hasPrefix("unknown key") }
    }

    @Test(arguments: ContentSchema.documents.indices)
    func everyKeyOfTheSchemaIsOneTheLoaderReads(index: Int) throws {
        let document = ContentSchema.documents[index]
        let errors = try Self.unknownKeyErrors(document, extra: nil)
        #expect(errors.isEmpty, "\(document.fileName): \(errors)")
    }

    @Test(arguments: ContentSchema.documents.indices)
    func aKeyTheSchemaDoesNotListIsRefusedAtEveryLevel(index: Int) throws {
        let document = ContentSchema.documents[index]
        let errors = try Self.unknownKeyErrors(document, extra: "zzz")
        // Every mapping of known keys refuses it; `params` takes any key.
        let nested = (document.json["properties"]?.objectValue ?? [:]).values.filter { $0["additionalProperties"] == false || $0["items"]?["additionalProperties"] == false }
        #expect(errors.count == 1 + nested.count, "\(document.fileName): \(errors)")
        #expect(errors.allSatisfy { $0.message.hasPrefix("unknown key \"zzz\"") })
    }

    @Test func aJSONProfileMayNameItsSchemaAndAYAMLOneMayNot() throws {
        let json = try SiteFixture(["content/users/alice.json": "{\"$schema\": \"../../schemas/profile-json.schema.json\", \"name\": \"Alice\"}\n"]).errors()
        #expect(json.isEmpty, "\(json)")
        let yaml = try SiteFixture(["content/users/alice.yaml": "$schema: x\nname: Alice\n"]).errors()
        #expect(yaml.contains { $0.contains("unknown key \"$schema\"") }, "\(yaml)")
    }

    @Test func everySchemaIsDraft2020WithTheLoadersDefaultsAndRequiredKeys() {
        for document in ContentSchema.documents {
            #expect(document.json["$schema"] == "https://json-schema.org/draft/2020-12/schema")
            #expect(document.json["additionalProperties"] == false)
        }
        #expect(ContentSchema.site.json["properties"]?["pageSize"]?["default"] == .int(SiteConfig.defaultPageSize))
        #expect(ContentSchema.post.json["required"] == ["photo", "date"])
        #expect(ContentSchema.post.json["properties"]?["visibility"]?["enum"] == ["public", "followers", "private"])
    }
}

/// The keys a schema requires are the ones whose absence the loader reports: from a valid file
/// with every key (each on its own line), taking out one key at a time is an error exactly
/// when the schema lists it under `required`, at the top and inside an item.
/// An editor checking a post's `date` with the schema agrees with `tomo check`: the pattern
/// takes exactly the forms `WrittenDate` reads (for days that exist; a pattern cannot count
/// the days of a month), offsets up to 23:59 either way included.
@Suite struct SchemaDatePatternTests {
    @Test func thePatternTakesWhatWrittenDateReads() throws {
        let pattern = try #require(ContentSchema.post.json["properties"]?["date"]?["pattern"]?.stringValue)
        let expression = try NSRegularExpression(pattern: pattern)
        let texts = [
            "2026-05-01", "2026-05-01T18:30", "2026-05-01 18:30:00", "2026-05-01T18:30:00.250Z",
            "2026-05-01T18:30:00+09:00", "2026-05-01T18:30:00-0330", "2026-05-01T18:30:00+09",
            "2026-05-01T18:30:00+18:00", "2026-05-01T18:30:00+18:01", "2026-05-01T18:30:00+19:00",
            "2026-05-01T18:30:00+23:59", "2026-05-01T18:30:00-23:59", "2026-05-01T18:30:00-2359",
            "2026-05-01T18:30:00+24:00", "2026-05-01T18:30:00-24:00", "2026-05-01T18:30:00+23:60",
            "2026-05-01T18:30:00+99:00", "2026-05-01T24:00", "2026-05-01T18:30:00+9:00", "0000-05-01",
        ]
        for text in texts {
            let range = NSRange(text.startIndex..., in: text)
            let matches = expression.firstMatch(in: text, range: range) != nil
            #expect(matches == (WrittenDate.parse(text) != nil), "\(text): the schema says \(matches)")
        }
    }
}

@Suite struct RequiredKeyTests {
    static let samples: [(document: ContentSchema.Document, text: String)] = [
        (ContentSchema.site, """
        title: T
        baseURL: https://example.com/
        language: en
        description: D
        homeUsers: 5
        pageSize: 5
        contact: a@example.com
        images: {widths: [320]}
        disableKinds: [feed]
        icon: icon.png
        qr: true
        params: {accent: red, menu: [a, b]}
        theme: {accent: red, background: [black, white], font: serif, buttons: pill}

        """),
        (ContentSchema.profile, """
        name: Alice
        bio: Hi
        icon: alice/icon.jpg
        header: alice/header.jpg
        links: {website: "https://example.com"}
        items:
          -
            text: Shop
            url: https://example.com/shop
            color: orange
            hidden: false
            from: 2026-05-01
            until: 2026-06-01
        itemColor: gray
        language: ja
        email: a@example.com
        showEmail: true
        theme: {accent: "#00897b", background: yellow, font: mono, buttons: square}

        """),
        (ContentSchema.post, "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A\nvisibility: public\ndraft: false\n---\n"),
        (ContentSchema.page, "---\ntitle: About\ndescription: D\ndraft: false\n---\n"),
    ]

    @Test(arguments: samples.indices)
    func aKeyIsMissedExactlyWhenTheSchemaRequiresIt(index: Int) throws {
        let (document, text) = Self.samples[index]
        let path = ContentSchemaTests.file(of: document).path
        let schema = document.json
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let itemRequired = Set((schema["properties"]?["items"]?["items"]?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var seen: Set<String> = []
        for (number, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard let colon = trimmed.firstIndex(of: ":"), trimmed.first != "-", !trimmed.hasPrefix("---") else { continue }
            let key = String(trimmed[..<colon])
            let inItem = line.hasPrefix("    ")
            guard !trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            var without = lines
            without.remove(at: number)
            var files = [
                "content/users/alice.yaml": "name: Alice\n",
                "content/users/alice/icon.jpg": "x", "content/users/alice/header.jpg": "x",
                "content/posts/alice/p.jpg": "x", "content/icon.png": "x",
            ]
            files[path] = without.joined(separator: "\n")
            let errors = try SiteFixture(files).load().errors
            let expected = inItem ? itemRequired.contains(key) : required.contains(key)
            #expect(errors.isEmpty != expected, "\(document.fileName) without \(key): \(errors)")
            seen.insert(inItem ? "items." + key : key)
        }
        // `items:` heads a block, so its keys are taken out one by one instead.
        let keys = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? []).subtracting(["items"])
        #expect(keys.isSubset(of: seen), "\(document.fileName): the sample lacks \(keys.subtracting(seen).sorted())")
    }
}
