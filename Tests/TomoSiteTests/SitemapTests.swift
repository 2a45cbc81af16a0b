import Foundation
import FoundationXML
import Testing
import TomoContent
import TomoCore
import TomoTestSupport
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

    /// The locs of one sitemap file of `site`'s output, and its root element.
    func locs(_ site: SiteFolder, _ path: String) throws -> (root: String?, locs: [String]) {
        let elements = try #require(site.page(path).flatMap(Elements.of), "\(path)")
        return (elements.last?.name, elements.filter { $0.name == "loc" }.map(\.text))
    }

    /// A real build with the limit lowered: a ninth URL splits the sitemap into an index and
    /// parts, incremental builds make what a full one does, the parts pass
    /// scripts/check_sitemaps.py (the protocol's rules), and back under the limit they go.
    @Test func aBuildPastTheLimitWritesAnIndexOfPartsThatFollowTheProtocol() throws {
        let site = try ChangeEngineTests.richSite()
        var options = BuildOptions(site: site.root)
        options.sitemapLimit = Sitemap.Limit(urls: 8, bytes: 1 << 20)
        try SiteBuilder.build(options)
        let single = try locs(site, "sitemap.xml")
        #expect(single.root == "urlset" && single.locs.count == 8)
        #expect(site.page("sitemap-1.xml") == nil)

        try site.write("content/posts/carol/four.md", "---\nphoto: four.jpg\ndate: 2026-05-04T10:00:00+02:00\n---\nFourth\n")
        try site.write("content/posts/carol/four.jpg", bytes: PostPagesTests.photo)
        try SiteBuilder.build(options)
        let index = try locs(site, "sitemap.xml")
        #expect(index.root == "sitemapindex")
        #expect(index.locs == ["https://example.com/sitemap-1.xml", "https://example.com/sitemap-2.xml"])
        let parts = try [locs(site, "sitemap-1.xml"), locs(site, "sitemap-2.xml")]
        #expect(parts.allSatisfy { $0.root == "urlset" && $0.locs.count <= 8 })
        #expect(parts.flatMap(\.locs) == [single.locs[0]] + single.locs[1...4] + ["https://example.com/carol/posts/four/"] + single.locs[5...])
        #expect(site.page("sitemap-3.xml") == nil)
        #expect(site.page("robots.txt")?.contains("Sitemap: https://example.com/sitemap.xml\n") == true)

        var full = options
        full.output = site.root.appendingPathComponent("full-build")
        full.full = true
        try SiteBuilder.build(full)
        #expect(SiteFolder.files(in: full.output).filter { $0.key != ".tomo-output" } == site.outputFiles().filter { $0.key != ".tomo-output" })

        let check = try Self.checkSitemaps(site.output, baseURL: "https://example.com/")
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("(9 URLs) follows the sitemaps.org protocol"), "\(check.output)")

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/posts/carol"))
        try SiteBuilder.build(options)
        #expect(try locs(site, "sitemap.xml") == single)
        #expect(site.page("sitemap-1.xml") == nil && site.page("sitemap-2.xml") == nil)
    }

    /// Runs scripts/check_sitemaps.py (python3 must be there: a missing one fails the test).
    static func checkSitemaps(_ output: URL, baseURL: String) throws -> (status: Int32, output: String) {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repository.appendingPathComponent("scripts/check_sitemaps.py").path, "--base-url", baseURL, output.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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

    /// The layout a build finds from the count and the longest path alone is the one measuring
    /// every line finds, on seeded sites with paths of every length (escaped characters
    /// included), dated and undated entries, and limits on both sides of the bound.
    @Test func theLayoutFromTheCountIsTheMeasuredLayout() throws {
        var random = SplitMix64(seed: 0x5175)
        let address = try SiteAddress("https://example.com/a&b/")
        var fromCount = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...400, using: &random)
            let longest = Int.random(in: 1...120, using: &random)
            let entries = (0..<count).map { _ in
                let length = Int.random(in: 1...longest, using: &random)
                let path = String((0..<length).map { _ in "ab&<'\"x/".randomElement(using: &random) ?? "a" })
                return Sitemap.Entry(path: path, lastmod: Bool.random(using: &random) ? "2026-05-04T10:00:00+02:00" : nil)
            }
            let limit = Sitemap.Limit(urls: Int.random(in: 1...500, using: &random), bytes: Int.random(in: 1_000...400_000, using: &random))
            let longestPath = entries.map(\.path.utf8.count).max() ?? 0
            guard let layout = Sitemap.layout(count: count, longestLine: Sitemap.longestLine(path: longestPath, address: address), limit: limit) else { continue }
            fromCount += 1
            let measured = Sitemap.layout(of: entries, address: address, limit: limit)
            #expect(layout.map(\.path) == measured.map(\.path) && layout.map(\.range) == measured.map(\.range), "\(count) entries, \(limit)")
        }
        #expect(fromCount > 100, "most seeded sites are laid out from the count")
    }
}
