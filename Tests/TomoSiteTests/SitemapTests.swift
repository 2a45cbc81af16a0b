import Foundation
import FoundationXML
import Testing
import TomoContent
import TomoCore
@testable import TomoSite

/// `/sitemap.xml` by the sitemaps.org protocol: `<lastmod>` for posts, and an index of parts
/// once the URLs pass what one file may hold.
@Suite struct SitemapTests {
    /// The elements of an XML file, each with its text, in order (parsed, not matched as text).
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, text: String)] = []
        private var text = ""

        static func of(_ xml: String) -> [(name: String, text: String)]? {
            let elements = Elements()
            let parser = XMLParser(data: Data(xml.utf8))
            parser.delegate = elements
            return parser.parse() ? elements.found : nil
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            found.append((name, text))
            text = ""
        }
    }

    @Test func postsCarryTheirDateAsLastmodAndOtherPagesNone() throws {
        let site = try ChangeEngineTests.richSite()
        try site.build()
        let elements = try #require(site.page("sitemap.xml").flatMap(Elements.of))
        #expect(elements.last?.name == "urlset")
        var lastmods: [String: String] = [:]
        var current = ""
        var urls = 0
        for (name, text) in elements {
            if name == "loc" { current = text; urls += 1 }
            if name == "lastmod" { lastmods[current] = text }
        }
        #expect(urls == 1 + 3 + 1 + 3, "home, three profiles, a page, three posts")
        #expect(lastmods == [
            "https://example.com/alice/posts/one/": "2026-05-01T10:00:00Z",
            "https://example.com/alice/posts/two/": "2026-05-02T10:00:00Z",
            "https://example.com/bob/posts/three/": "2026-05-03T10:00:00Z",
        ])
        #expect(site.page("sitemap-1.xml") == nil)
    }

    @Test func urlsPastALimitAreSplitIntoPartsListedByAnIndex() throws {
        let address = try SiteAddress("https://example.com/sub/")
        let entries = Sitemap.entries(handles: (1...9).map { "user\($0)" }, pages: [], posts: [])
        for limit in [Sitemap.Limit(urls: 4, bytes: 1 << 20), Sitemap.Limit(urls: 100, bytes: 400)] {
            let layout = Sitemap.layout(of: entries, address: address, limit: limit)
            #expect(layout.first?.path == "sitemap.xml")
            #expect(layout.first.map { $0.range == nil } == true, "the index")
            let parts = layout.dropFirst()
            #expect(parts.map(\.path) == (1...parts.count).map { "sitemap-\($0).xml" })
            // The parts hold every entry once, in order, each within the limit.
            #expect(parts.flatMap { Array($0.range ?? 0..<0) } == Array(entries.indices))
            for part in parts {
                let bytes = Sitemap.urlset(entries[part.range ?? 0..<0], address: address)
                #expect(bytes.count <= limit.bytes)
                let urls = try #require(Elements.of(String(decoding: bytes, as: UTF8.self))).filter { $0.name == "loc" }
                #expect(urls.count <= limit.urls && !urls.isEmpty)
            }
            let index = try #require(Elements.of(String(decoding: Sitemap.index(count: parts.count, address: address), as: UTF8.self)))
            #expect(index.filter { $0.name == "loc" }.map(\.text) == parts.map { "https://example.com/sub/" + $0.path })
            #expect(index.last?.name == "sitemapindex")
        }
        #expect(Sitemap.layout(of: entries, address: address, limit: .protocolLimit).map(\.path) == ["sitemap.xml"])
    }
}
