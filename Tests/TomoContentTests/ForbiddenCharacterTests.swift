import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// No text of a site may hold a control character (but tab and line breaks) or a Unicode
/// noncharacter, however it was written: raw, as a YAML escape or as a JSON escape. Each such
/// character is an error at the place it was written, in every text field there is.
@Suite struct ForbiddenCharacterTests {
    /// Every C0 control but tab, line feed and carriage return, DEL, every C1 control, and
    /// noncharacters from the BMP and beyond.
    static let forbidden: [UInt32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + Array(0x7F...0x9F)
        + [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF]
    /// Unusual characters that are valid in HTML and XML: a right-to-left mark and override,
    /// the line separator, no-break space, a byte-order mark inside text, an emoji.
    static let allowed: [UInt32] = [0x09, 0x20, 0xA0, 0x200F, 0x202E, 0x2028, 0xFEFF, 0x1F600]

    /// `\uXXXX` or `\UXXXXXXXX`, as YAML's double-quoted scalars write any code point.
    static func yamlEscape(_ value: UInt32) -> String {
        value <= 0xFFFF ? String(format: "\\u%04X", value) : String(format: "\\U%08X", value)
    }

    /// `\uXXXX`, or a surrogate pair beyond the BMP, as JSON writes any code point.
    static func jsonEscape(_ value: UInt32) -> String {
        guard value > 0xFFFF else { return String(format: "\\u%04X", value) }
        let offset = value - 0x10000
        return String(format: "\\u%04X\\u%04X", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
    }

    /// A site with `text` (already escaped) in every text field, each on a line of its own,
    /// and `raw` as a post's caption and a page's body. Returns the places where each field is.
    static func site(yaml text: String, json: String, raw: String) throws -> (site: SiteFixture, fields: [String]) {
        let files = [
            "content/site.yaml": "title: \"Site \(text)\"\ndescription: \"About \(text)\"\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": """
            name: "Alice \(text)"
            bio: "Hello \(text)"
            items:
              - text: "Item \(text)"
                url: "https://example.com/\(text)"
            links:
              website: "https://alice.example/\(text)"
            """,
            "content/users/bob.json": """
            {
              "name": "Bob \(json)",
              "bio": "Hi \(json)",
              "items": [{"text": "Thing \(json)"}]
            }
            """,
            "content/users/carol.yaml": "name: Carol \(raw)!\n",
            "content/pages/about.md": "---\ntitle: \"About \(text)\"\ndescription: \"Us \(text)\"\n---\nBody.\n",
            "content/pages/notes.md": "---\ntitle: Notes\n---\n\nBody \(raw).\n",
            "content/posts/alice/sunset.md": "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: \"A sunset \(text)\"\n---\nCaption.\n",
            "content/posts/alice/dawn.md": "---\nphoto: sunset.jpg\ndate: 2026-05-02\nalt: Dawn\n---\nFirst line.\n\nCaption \(raw).\n",
            "content/posts/alice/sunset.jpg": "not decoded by the loader",
        ]
        let fields = [
            "content/site.yaml:1", "content/site.yaml:2",
            "content/users/alice.yaml:1", "content/users/alice.yaml:2", "content/users/alice.yaml:4", "content/users/alice.yaml:5", "content/users/alice.yaml:7",
            "content/users/carol.yaml:1:13",
            "content/pages/about.md:2", "content/pages/about.md:3", "content/pages/notes.md:5:6",
            "content/posts/alice/sunset.md:4", "content/posts/alice/dawn.md:8:9",
        ]
        return (try SiteFixture(files), fields)
    }

    /// The `file:line` and `file:line:column` of every error (a raw character's column is
    /// known exactly, an escape's value by where it starts).
    private static func errorPlaces(_ result: ContentLoadResult) -> [String] {
        result.errors.flatMap { error in
            error.location.map { ["\($0.file):\($0.line)", "\($0.file):\($0.line):\($0.column)"] } ?? ["unlocated: \(error.message)"]
        }
    }

    @Test(arguments: forbidden)
    func aForbiddenCharacterIsAnErrorInEveryField(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let (site, fields) = try Self.site(yaml: Self.yamlEscape(value), json: Self.jsonEscape(value), raw: String(Character(scalar)))
        let result = site.load()
        let places = Self.errorPlaces(result)
        // Every YAML field and every Markdown body, each at its own line.
        for field in fields {
            #expect(places.contains(field), "U+\(String(value, radix: 16)) in \(field): \(places)")
        }
        // The JSON profile's three fields (at the top of the file when libyaml cannot read the
        // JSON's surrogate pairs and the nodes come from the JSON parser).
        #expect(result.errors.filter { $0.location?.file == "content/users/bob.json" }.count == 3, "U+\(String(value, radix: 16)) in bob.json: \(places)")
        #expect(!places.contains { $0.hasPrefix("unlocated") }, "\(places)")
        #expect(result.errors.allSatisfy { $0.message.contains("U+") }, "\(result.errors)")
    }

    @Test(arguments: allowed)
    func anAllowedCharacterLoadsAsWritten(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let (site, _) = try Self.site(yaml: Self.yamlEscape(value), json: Self.jsonEscape(value), raw: String(Character(scalar)))
        let result = site.load()
        // Addresses may not hold white space of any kind, which is their own rule; and raw in
        // YAML, libyaml takes U+2028 for a line break.
        let urlLines = [5, 7]
        let errors = result.errors.filter { error in
            guard let location = error.location else { return true }
            return location.file != "content/users/carol.yaml" && (location.file != "content/users/alice.yaml" || !urlLines.contains(location.line))
        }
        #expect(errors.isEmpty, "\(errors)")
        let content = try #require(result.content)
        #expect(content.config.title == "Site " + String(Character(scalar)))
        #expect(content.profiles.first { $0.handle == "bob" }?.name == "Bob " + String(Character(scalar)))
        #expect(content.pages.first { $0.name == "notes" }?.markdown.contains("Body " + String(Character(scalar))) == true)
    }

    /// YAML's short escapes for control characters, and `\x`.
    @Test(arguments: ["\\0", "\\a", "\\b", "\\v", "\\f", "\\r\\e", "\\e", "\\N", "\\x1b", "\\x7F", "\\x85", "\\_\\0"])
    func yamlsNamedEscapesAreRefused(escape: String) throws {
        let site = try SiteFixture(["content/users/alice.yaml": "name: \"C\(escape)[31m\"\n"])
        let errors = site.errors()
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:1:7: \"name\" holds the control character U+00") }, "\(errors)")
    }
}
