import Foundation
import Testing
import TomoCore
@testable import TomoSite
import TomoTestSupport

/// Link previews and identity: Open Graph and Twitter tags, JSON-LD, h-card, `rel="me"` and
/// `fediverse:creator`, on built pages.
@Suite struct LinkPreviewTests {
    /// Text that would end a script element, open a comment or break old JavaScript parsers.
    static let hostileTexts = ["</script><!--", "\"&<>", "a\u{2028}b\u{2029}c", "<!--<script>alert(1)</script>", "</SCRIPT >", "\\u003c/script>", "]]>&amp;"]

    // MARK: - The tags every page carries

    @Test func everyPageNamesAnImageWithItsRealSizeAltTextAndACardThatFitsIt() throws {
        let site = try SiteFolder([
            "content/users/plain.yaml": "name: Plain\n",
            "content/pages/about.md": "---\ntitle: About\n---\nAbout us.\n",
        ])
        try site.build()
        let output = site.outputFiles()
        let pages = output.keys.filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages.count >= 7)
        for path in pages {
            let tags = try #require(MetaTags(site.page(path) ?? ""))
            let url = try #require(tags["og:image"].first, "\(path) has no og:image")
            #expect(url.hasPrefix("https://example.com/"), "\(path): \(url) is not absolute")
            let file = String(url.dropFirst("https://example.com/".count))
            let bytes = try #require(try? Data(contentsOf: site.output.appendingPathComponent(file)), "\(path): \(file) is not in the output")
            let size = try #require(ImageSize.of(Array(bytes)), "\(path): \(file)")
            #expect(tags["og:image:width"] == [String(size.width)], "\(path)")
            #expect(tags["og:image:height"] == [String(size.height)], "\(path)")
            #expect(tags["og:image:alt"].first?.isEmpty == false, "\(path)")
            #expect(tags["twitter:card"] == [Self.expectedCard(size.width, size.height)], "\(path)")
            #expect(tags["og:locale"] == ["en_US"], "\(path)")
        }
        // The home page, the free page and the 404 page show the theme's image; a profile, even
        // one without images, its share card.
        #expect(try MetaTags(site.page("plain/index.html") ?? "")?["og:image"].first?.contains("/media/plain/card-") == true)
        for path in ["index.html", "about/index.html", "404.html"] {
            let tags = try #require(MetaTags(site.page(path) ?? ""))
            #expect(tags["og:image"] == ["https://example.com/static/preview.png"], "\(path)")
            #expect(tags["og:image:alt"] == ["Test site"], "\(path)")
            #expect(tags["twitter:card"] == ["summary_large_image"], "\(path)")
        }
    }

    /// The rule, written out again: the large card for images of at least 300×157 that keep
    /// three quarters of themselves when cropped to 1.91:1.
    static func expectedCard(_ width: Int, _ height: Int) -> String {
        let ratio = Double(width) / Double(height)
        let kept = min(ratio / 1.91, 1.91 / ratio)
        return width >= 300 && height >= 157 && kept >= 0.75 ? "summary_large_image" : "summary"
    }

    @Test func theCardFollowsTheImagesShapeForAnySize() {
        let sizes = [(1200, 630), (1280, 720), (1500, 1000), (300, 157), (299, 157), (1280, 400), (256, 256), (1000, 1250), (4000, 3000), (2560, 1000), (3000, 1000), (640, 480)]
        for (width, height) in sizes {
            let image = PreviewImage(path: "x.png", width: width, height: height, alt: "x")
            #expect(image.card.rawValue == Self.expectedCard(width, height), "\(width)×\(height)")
        }
        for width in stride(from: 100, through: 4000, by: 97) {
            for height in stride(from: 100, through: 4000, by: 89) {
                #expect(PreviewImage(path: "x", width: width, height: height, alt: "").card.rawValue == Self.expectedCard(width, height))
            }
        }
        #expect(PreviewImage(path: "x", width: 1280, height: 400, alt: "").card == .summary, "a wide header is cropped badly by the large card")
    }

    @Test func aProfileIsPreviewedByItsShareCardWhateverShapeItsImagesAre() throws {
        let site = try SiteFolder(["content/users/wide.yaml": "name: Wide\nbio: Wide views.\nicon: wide/icon.png\nheader: wide/header.png\n"])
        try site.write("content/users/wide/icon.png", bytes: TestPNG.grey(width: 400, height: 400))
        for (width, height) in [(1280, 400), (1200, 630), (600, 900)] {
            try site.write("content/users/wide/header.png", bytes: TestPNG.grey(width: width, height: height))
            try site.build()
            let tags = try #require(MetaTags(site.page("wide/index.html") ?? ""))
            #expect(tags["og:image"].first?.contains("/media/wide/card-") == true, "\(width)×\(height)")
            #expect(tags["og:image:width"] == ["1200"] && tags["og:image:height"] == ["630"])
            #expect(tags["og:image:alt"] == ["Wide (@wide) · Wide views."])
            #expect(tags["twitter:card"] == ["summary_large_image"])
        }
    }

    @Test func profilesAndPostsSayWhatTheyAre() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "language: ja\n",
            "content/users/ann.yaml": "name: Ann\n",
            "content/posts/ann/walk.md": "---\nphoto: walk.jpg\ndate: 2026-05-01T12:00:00+09:00\nalt: A dog on a beach\n---\nMorning walk\n",
        ])
        try site.write("content/posts/ann/walk.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        try site.build()
        let profile = try #require(MetaTags(site.page("ann/index.html") ?? ""))
        #expect(profile["og:type"] == ["profile"])
        #expect(profile["profile:username"] == ["ann"])
        #expect(profile["og:locale"] == ["ja_JP"])
        let post = try #require(MetaTags(site.page("ann/posts/walk/index.html") ?? ""))
        #expect(post["og:type"] == ["article"])
        #expect(post["article:published_time"] == ["2026-05-01T12:00:00+09:00"])
        #expect(post["og:image:alt"] == ["A dog on a beach · Morning walk · Ann (@ann)"])
        #expect(post["og:image"].first?.contains("/media/ann/walk-card-") == true)
        let posting = try #require(try Self.jsonLD(site.page("ann/posts/walk/index.html")))
        #expect(posting["@type"] == "SocialMediaPosting")
        #expect(posting["datePublished"] == "2026-05-01T12:00:00+09:00")
        #expect(posting["author"]?["alternateName"] == "@ann")
        // The posting's image is the photo itself.
        #expect(posting["image"]?["contentUrl"]?.stringValue?.contains("/media/ann/walk-") == true)
        #expect(posting["image"]?["contentUrl"]?.stringValue?.contains("card") == false)
        #expect(posting["image"]?["description"] == "A dog on a beach")
    }

    // MARK: - Identity

    /// An e-mail link written in the list form is no web page either: not in `sameAs`, nor a
    /// `URL` line of the contact card (whose `EMAIL` only `showEmail` gives).
    @Test func aListedMailtoLinkIsNotASameAsNorAContactCardURL() throws {
        let site = try SiteFolder(["content/users/alice.yaml": """
        name: Alice
        links:
          - label: Write to me
            url: MAILTO:write@example.net
          - label: Site
            url: https://alice.example/
        """])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        let person = try #require(try Self.jsonLD(page)?["mainEntity"])
        #expect(person["sameAs"] == ["https://alice.example/"])
        let card = try #require(site.page("alice/contact.vcf"))
        #expect(card.contains("URL:https://alice.example/\r\n"), "\(card)")
        #expect(!card.lowercased().contains("mailto"), "\(card)")
        #expect(page.contains(#"href="MAILTO:write@example.net" rel="me">"#), "the page still links it")
    }

    @Test func profilesCarryAProfilePageWhoseSameAsIsTheUsersLinks() throws {
        let site = try SiteFolder(["content/users/alice.yaml": """
        name: Alice Example
        bio: |
          Photographer in **Tokyo**.
          Prints at [my shop](https://alice.example/shop).

          Second paragraph.
        links:
          github: https://github.com/alice
          mastodon: https://mastodon.social/@alice
          website: https://alice.example
          email: mailto:alice@example.com
        items:
          - text: A friend's shop
            url: https://friend.example/
        """])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        let ld = try #require(try Self.jsonLD(page))
        #expect(ld["@context"] == "https://schema.org")
        #expect(ld["@type"] == "ProfilePage")
        let person = try #require(ld["mainEntity"])
        #expect(person["@type"] == "Person")
        #expect(person["name"] == "Alice Example")
        #expect(person["alternateName"] == "@alice")
        #expect(person["url"] == "https://example.com/alice/")
        #expect(person["description"] == "Photographer in Tokyo. Prints at my shop.\nSecond paragraph.")
        #expect(person["sameAs"] == ["https://github.com/alice", "https://mastodon.social/@alice", "https://alice.example"])
        // Every own link says it is the user's; an item links to someone else.
        for url in ["https://github.com/alice", "https://mastodon.social/@alice", "https://alice.example", "mailto:alice@example.com"] {
            #expect(page.contains("href=\"\(url)\" rel=\"me\">"), "\(url)")
        }
        #expect(!page.contains(#"href="https://friend.example/" rel="me""#))
        #expect(page.contains(#"<meta name="fediverse:creator" content="@alice@mastodon.social">"#))
        for name in ["h-card", "p-name", "u-url", "p-nickname", "p-note"] {
            #expect(page.contains(name), "\(name)")
        }
    }

    @Test func aMastodonLinkNamesTheAccountOnlyInMastodonsForm() {
        let cases: [(String, String?)] = [
            ("https://mastodon.social/@alice", "@alice@mastodon.social"),
            ("https://Social.Example.org/@Bob_1/", "@Bob_1@social.example.org"),
            ("http://m.example/@a.b-c", "@a.b-c@m.example"),
            ("https://mastodon.social/@alice@other.example", nil),
            ("https://mastodon.social/users/alice", nil),
            ("https://mastodon.social/@", nil),
            ("https://mastodon.social/@alice?lang=en", nil),
            ("https://mastodon.social:8443/@alice", nil),
            ("https://user@mastodon.social/@alice", nil),
            ("https://localhost/@alice", nil),
            ("https://mastodon.social/@alice/123", nil),
            ("mailto:alice@mastodon.social", nil),
            ("https://mastodon.social/@al\"ice", nil),
        ]
        for (url, handle) in cases {
            #expect(FediverseAccount.handle(profileURL: url) == handle, "\(url)")
        }
    }

    @Test func aPostNamesItsOwnersFediverseAccount() throws {
        let site = try SiteFolder([
            "content/users/ann.yaml": "name: Ann\nlinks:\n  mastodon: https://m.example/@ann\n",
            "content/users/bob.yaml": "name: Bob\nlinks:\n  mastodon: https://m.example/users/bob\n",
            "content/posts/ann/a.md": "---\nphoto: p.jpg\ndate: 2026-05-01T12:00:00Z\n---\nA\n",
            "content/posts/bob/b.md": "---\nphoto: p.jpg\ndate: 2026-05-01T12:00:00Z\n---\nB\n",
        ])
        for handle in ["ann", "bob"] {
            try site.write("content/posts/\(handle)/p.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        }
        try site.build()
        #expect(site.page("ann/posts/a/index.html")?.contains(#"<meta name="fediverse:creator" content="@ann@m.example">"#) == true)
        #expect(site.page("bob/posts/b/index.html")?.contains("fediverse:creator") == false, "a link in another form names no account")
        #expect(site.page("bob/index.html")?.contains("fediverse:creator") == false)
        // Editing the link alone remakes the post page.
        try site.write("content/users/ann.yaml", "name: Ann\nlinks:\n  mastodon: https://n.example/@ann\n")
        try site.build()
        #expect(site.page("ann/posts/a/index.html")?.contains(#"content="@ann@n.example">"#) == true)
    }

    // MARK: - Escaping

    @Test func hostileNamesAndBiosStayInsideTheScriptElementAndReadBackTheSame() throws {
        for (index, text) in Self.hostileTexts.enumerated() {
            let handle = "user\(index)"
            let profile: JSONValue = ["name": .string("N " + text), "bio": .string("B " + text), "links": ["website": .string("https://example.org/?q=" + text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)]]
            let site = try SiteFolder(["content/site.yaml": SiteFolder.siteYAML, "content/users/\(handle).json": JSONWriter.string(profile)])
            try site.build()
            let page = try #require(site.page("\(handle)/index.html"))
            let script = try #require(Self.scriptText(page))
            for raw in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
                #expect(!script.contains(raw), "\(text): a raw \(raw) in the script")
            }
            let ld = try JSONParser.parse(script, file: "ld")
            #expect(ld["mainEntity"]?["name"]?.stringValue == "N " + text)
            #expect(ld["mainEntity"]?["description"]?.stringValue?.hasPrefix("B") == true)
            // The page has exactly one script element, and it ends where the JSON does.
            #expect(page.components(separatedBy: "<script").count == 2, "\(text)")
        }
    }

    @Test func scriptJSONEscapesEveryDangerousCharacterAndMeansTheSame() throws {
        // U+2027 and U+202A share their first two UTF-8 bytes with the two line ends, and
        // must come through as they are.
        let scalars = ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "…", "/", "\"", "\\", "\n", "é", "😀"]
        for first in scalars {
            for second in scalars {
                let value: JSONValue = ["text": .string(first + "x" + second), "list": [.string(second + first)]]
                let text = ScriptJSON.text(value)
                #expect(!text.contains { "<>&\u{2028}\u{2029}".contains($0) }, "\(text)")
                #expect(try JSONParser.parse(text, file: "x") == value)
            }
        }
    }

    @Test func aThemePreviewImageThatIsNotAPNGIsAnError() throws {
        let site = try SiteFolder(["content/users/ann.yaml": "name: Ann\n"])
        try site.write("templates/static/preview.png", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        let errors = try #require(site.buildErrors())
        #expect(errors.contains { $0.hasPrefix("templates/static/preview.png:1:1: this is not a PNG image") }, "\(errors)")
        try site.write("templates/static/preview.png", bytes: TestPNG.grey(width: 600, height: 600))
        try site.build()
        let tags = try #require(MetaTags(site.page("index.html") ?? ""))
        #expect(tags["og:image:width"] == ["600"])
        #expect(tags["twitter:card"] == ["summary"])
    }

    /// A bio written as one very long line: the card's alt text and the JSON-LD description
    /// are shortened at a word (the card shows the bio's first line), not the whole bio
    /// copied into each tag of the page.
    @Test func aBookLongBioIsShortenedInTheTagsThatRepeatIt() throws {
        let words = (0..<20_000).map { "word\($0)" }.joined(separator: " ")
        let site = try SiteFolder(["content/users/ann.yaml": "name: Ann\nbio: \(words)\n"])
        try site.build()
        let page = try #require(site.page("ann/index.html"))
        let tags = try #require(MetaTags(page))
        for name in ["og:image:alt", "twitter:image:alt"] {
            let alt = try #require(tags[name].first, "\(name)")
            #expect(alt.count <= PreviewImage.altLength && alt.hasPrefix("Ann (@ann) · word0 word1"), "\(name): \(alt.prefix(80))… \(alt.count)")
        }
        let description = try #require(try Self.jsonLD(page)?["mainEntity"]?["description"]?.stringValue)
        #expect(description.count <= ProfilePages.describedLength && description.hasPrefix("word0 word1"), "\(description.count)")
        #expect(page.utf8.count < words.utf8.count * 3, "the bio is on the page, not in every tag: \(page.utf8.count) bytes")
    }

    @Test func aLongCaptionIsShortenedInTheTitleAndHeadlineButShownWhole() throws {
        let words = (0..<60).map { "word\($0)" }.joined(separator: " ")
        let japanese = String(repeating: "海辺の朝の散歩", count: 15)
        let edge = String(repeating: "abcdefghi ", count: 6) + "abcdefghij rest of the caption"
        let site = try SiteFolder([
            "content/users/ann.yaml": "name: Ann\n",
            "content/posts/ann/walk.md": "---\nphoto: walk.jpg\ndate: 2026-05-01T12:00:00Z\n---\n\(words)\n",
            "content/posts/ann/sea.md": "---\nphoto: walk.jpg\ndate: 2026-05-02T12:00:00Z\n---\n\(japanese)\n",
            "content/posts/ann/short.md": "---\nphoto: walk.jpg\ndate: 2026-05-03T12:00:00Z\n---\nMorning walk\n",
            "content/posts/ann/edge.md": "---\nphoto: walk.jpg\ndate: 2026-05-04T12:00:00Z\n---\n\(edge)\n",
        ])
        try site.write("content/posts/ann/walk.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        try site.build()
        for (slug, caption, title) in [
            ("walk", words, "word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10…"),
            ("sea", japanese, String(japanese.prefix(70)) + "…"),
            ("short", "Morning walk", "Morning walk"),
            // A word that ends at the 70th character is kept whole.
            ("edge", edge, edge.prefix(70) + "…"),
        ] {
            let page = try #require(site.page("ann/posts/\(slug)/index.html"))
            let tags = try #require(MetaTags(page))
            let isolated = BidiIsolation.isolated(title)
            #expect(tags["og:title"] == ["\(isolated) · Ann · Test site"], "\(slug)")
            #expect(page.contains("<title>\(isolated) · Ann · Test site</title>"), "\(slug)")
            #expect(try Self.jsonLD(page)?["headline"] == .string(title), "\(slug)")
            // The page itself shows the whole caption.
            #expect(page.contains(caption), "\(slug)")
        }
    }

    // MARK: - Reading pages

    /// The text of the page's JSON-LD script element.
    static func scriptText(_ page: String) -> String? {
        let open = #"<script type="application/ld+json">"#
        guard let start = page.range(of: open), let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    static func jsonLD(_ page: String?) throws -> JSONValue? {
        guard let page, let text = scriptText(page) else { return nil }
        return try JSONParser.parse(text, file: "ld+json")
    }
}

/// The `<meta property|name=… content=…>` tags of a page, by name (HTML entities decoded).
struct MetaTags {
    private var values: [String: [String]] = [:]

    init?(_ page: String) {
        guard page.contains("<head>") else { return nil }
        let pattern = try? NSRegularExpression(pattern: #"<meta (?:property|name)="([^"]+)" content="([^"]*)">"#)
        let range = NSRange(page.startIndex..., in: page)
        for match in pattern?.matches(in: page, range: range) ?? [] {
            guard let name = Range(match.range(at: 1), in: page), let content = Range(match.range(at: 2), in: page) else { continue }
            values[String(page[name]), default: []].append(Self.decode(String(page[content])))
        }
    }

    subscript(name: String) -> [String] { values[name] ?? [] }

    static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// The pixel size in a PNG's or a baseline/progressive JPEG's header.
enum ImageSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        PreviewImage.pngSize(bytes) ?? JPEGSize.of(bytes)
    }
}

/// Grey PNGs of any size, written with stored (uncompressed) deflate blocks.
enum TestPNG {
    static func grey(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: (0..<width).map { UInt8(truncatingIfNeeded: ($0 &+ row) / 8 * 16) })
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian(b << 16 | a)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
    }
}
