import Foundation
import Testing
import TomoTestSupport

/// `/<handle>/contact.vcf`: a vCard 4.0 that PyPI's vobject reads back with every value as the
/// profile wrote it, hostile ones too, and that holds only what the profile page publishes.
@Suite struct ContactCardTests {
    static let name = #"Doe, Jane; "JJ" \ 山田 😀👩‍👩‍👧"#
    /// Commas, semicolons, backslashes, Japanese, emoji and a long paragraph: a line of the card
    /// is folded many times, across multi-byte characters.
    static let longParagraph = String(repeating: "写真とカメラ, film; 🎞️ \\ ", count: 60)

    static func site(showEmail: Bool) throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Cards\nbaseURL: https://example.com/sub/\n")
        try site.copy(sampleJPEG, to: "content/users/jane/icon.jpg")
        try site.write("content/users/jane.yaml", """
        name: '\(name.replacingOccurrences(of: "'", with: "''"))'
        bio: |
          First, paragraph; with *markup* and a [link](https://example.com/x).
          Second line of it.

          \(longParagraph)
        icon: jane/icon.jpg
        links:
          twitter: https://twitter.com/jane
          website: https://jane.example/a,b;c/
          email: mailto:public@jane.example
        items:
          - text: SECRET-HIDDEN-ITEM
            hidden: true
          - text: A shown item
        email: private@jane.example
        showEmail: \(showEmail)

        """)
        try site.write("content/users/bob.yaml", "name: Bob\n")
        return site
    }

    @Test func hostileValuesReadBackAsWritten() throws {
        let site = try Self.site(showEmail: false)
        #expect(runTomo(["user", "add", "jane"], in: site.url).status == 0)
        #expect(runTomo(["user", "add", "bob"], in: site.url).status == 0)
        #expect(runTomo(["block", "jane", "bob"], in: site.url).status == 0)
        let result = runTomo(["build"], in: site.url)
        try #require(result.status == 0, "\(result.error)")
        let bytes = try Data(contentsOf: site.url.appendingPathComponent("public/jane/contact.vcf"))
        let card = try ParsedVCard(bytes)
        #expect(card.version == "4.0")
        #expect(card.values("FN") == [Self.name])
        #expect(card.values("NICKNAME") == ["jane"])
        #expect(card.values("NOTE") == ["First, paragraph; with markup and a link. Second line of it.\n" + Self.longParagraph.trimmingCharacters(in: .whitespaces)])
        #expect(card.values("URL") == ["https://example.com/sub/jane/", "https://twitter.com/jane", "https://jane.example/a,b;c/"])
        #expect(card.values("SOURCE") == ["https://example.com/sub/jane/contact.vcf"])
        let photo = try #require(card.values("PHOTO").first)
        #expect(photo.hasPrefix("https://example.com/sub/media/jane/icon-") && photo.hasSuffix(".jpg"))
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public" + photo.dropFirst("https://example.com/sub".count)).path), "\(photo)")
        // Only these properties: no e-mail without showEmail, no item, nothing of the store.
        #expect(Set(card.properties.map(\.name)) == ["VERSION", "FN", "NICKNAME", "NOTE", "PHOTO", "URL", "SOURCE"])
        let text = String(decoding: bytes, as: UTF8.self)
        for secret in ["private@jane.example", "SECRET-HIDDEN-ITEM", "A shown item", "bob", "block"] {
            #expect(!text.contains(secret), "\(secret)")
        }
        // Every line at most 75 octets and ended by CRLF (vobject unfolds longer ones too).
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.last == "" && lines.dropLast().allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") && !$0.contains("\r") })
        #expect(lines.count > 40, "the long bio is folded")

        // The page links the card with its label.
        let page = try String(contentsOf: site.url.appendingPathComponent("public/jane/index.html"), encoding: .utf8)
        #expect(page.contains(#"<p class="save-contact"><a href="/sub/jane/contact.vcf" type="text/vcard" download="jane.vcf">Save contact</a></p>"#))
        // A profile with nothing but a name: its name, handle and address.
        let bob = try ParsedVCard(Data(contentsOf: site.url.appendingPathComponent("public/bob/contact.vcf")))
        #expect(bob.properties.map(\.name) == ["VERSION", "FN", "NICKNAME", "URL", "SOURCE"])
    }

    @Test func theEmailIsInTheCardOnlyWithShowEmail() throws {
        let site = try Self.site(showEmail: true)
        try #require(runTomo(["build"], in: site.url).status == 0)
        let card = try ParsedVCard(Data(contentsOf: site.url.appendingPathComponent("public/jane/contact.vcf")))
        #expect(card.values("EMAIL") == ["private@jane.example"])
        // A mailto: link is no web address.
        #expect(!card.values("URL").contains { $0.hasPrefix("mailto:") })
    }

    @Test func japaneseLabels() throws {
        let site = try Self.site(showEmail: false)
        try site.write("content/site.yaml", "title: Cards\nlanguage: ja\nqr: true\n")
        try #require(runTomo(["build"], in: site.url).status == 0)
        let page = try String(contentsOf: site.url.appendingPathComponent("public/jane/index.html"), encoding: .utf8)
        #expect(page.contains(">連絡先を保存</a>"))
        #expect(page.contains(#"alt="Doe, Jane; &quot;JJ&quot; \ 山田 😀👩‍👩‍👧さんのプロフィールのQRコード""#), "\(page)")
    }
}
