import Foundation
import Testing
import TomoTestSupport
import TomoCore
@testable import TomoSite

/// Feeds and the sitemap are XML 1.0, which one forbidden character makes unreadable as a
/// whole. The content checks keep such characters out of content, and out of a site's own
/// templates and labels; XML files are written through a filter as well, the last guard.
@Suite struct XMLOutputTests {
    /// Every character XML 1.0 forbids that a UTF-8 text can hold: C0 controls but tab, line
    /// feed and carriage return, and U+FFFE, U+FFFF.
    static let forbiddenInXML: [UInt32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + [0xFFFE, 0xFFFF]

    /// The site's own templates and labels may hold none of them (an error at each); the
    /// feeds keep the bidirectional characters and line separators content may hold.
    @Test func aThemeCannotMakeAFeedThatIsNotXML() throws {
        let raw = Self.forbiddenInXML.compactMap(Unicode.Scalar.init).map { String(Character($0)) }.joined()
        // JSON escapes in the label file, raw characters in the template.
        let escaped = Self.forbiddenInXML.map { String(format: "\\u%04X", $0) }.joined()
        let refused = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "templates/feed.mustache": "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>{{feed.title}}\(raw)</title></feed>\n",
            "templates/labels/en.json": "{\"photoBy\": \"Photo by {name} \(escaped)\"}\n",
        ])
        #expect(refused.buildErrors()?.count == 2, "\(refused.buildErrors() ?? [])")
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: \"Alice \\u202Eevil\\u202C \\u2028\"\n",
            "content/posts/alice/p.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A photo\n---\n",
        ])
        try site.writePhoto(forPostsOf: "alice")
        try site.build()
        for path in ["feed.xml", "alice/feed.xml"] {
            let feed = try #require(site.page(path))
            #expect(throws: Never.self, "\(path) is not well-formed XML") { try AtomSummary(Data(feed.utf8)) }
            let summary = try AtomSummary(Data(feed.utf8))
            #expect(summary.entries.first?["title"]?.hasPrefix("Photo by \u{2068}Alice \u{202E}evil\u{202C} \u{2028}\u{2069}") == true, "\(summary.entries)")
            #expect(!feed.unicodeScalars.contains { Self.forbiddenInXML.contains($0.value) })
        }
    }

    @Test func theFilterKeepsEveryOtherCharacterAndRepairsBrokenUTF8() throws {
        // Swift literals cannot hold noncharacters: build them from their code points.
        func text(_ values: [UInt32]) throws -> String {
            String(String.UnicodeScalarView(try values.map { try #require(Unicode.Scalar($0)) }))
        }
        let allowed = "<a>\t\n\r é 日本 😀 \u{85} \u{7F} \u{FFFD} " + (try text([0xFDD0, 0x1FFFF])) + "</a>"
        #expect(ForbiddenCharacters.xmlSafe(Array(allowed.utf8)) == Array(allowed.utf8))
        #expect(ForbiddenCharacters.xmlSafe(Array(try text([0x61, 0x00, 0x62, 0x1B, 0x63, 0xFFFF, 0xFFFE]).utf8)) == Array("a\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}".utf8))
        #expect(ForbiddenCharacters.xmlSafe([0x61, 0xFF, 0x62, 0xE6, 0x97]) == Array("a\u{FFFD}b\u{FFFD}".utf8))
    }
}
