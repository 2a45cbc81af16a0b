import Foundation
import Testing
import TomoTestSupport

/// Every page links one set of icons: the sizes libvips makes from site.yaml's `icon`, or the
/// theme's SVG; each file it names is in the output, with the size it declares.
@Suite struct SiteIconTests {
    /// The demo's wide header photo: an icon must come out square anyway.
    static let wideImage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/kenji/header.jpg")

    static func site(icon: String?) throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n" + (icon.map { "icon: \($0)\n" } ?? ""),
            "content/users/alice.yaml": "name: Alice\n",
            "content/pages/about.md": "---\ntitle: About\n---\nHi.\n",
            "content/posts/alice/sunset.md": "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nEvening.\n",
        ])
        try site.copy(sampleJPEG, to: "content/posts/alice/sunset.jpg")
        try site.copy(wideImage, to: "content/brand/wide.jpg")
        return site
    }

    /// The `<link>` tags of a page whose rel is an icon, as (rel, type, sizes, href).
    static func iconLinks(_ html: String) -> [[String: String]] {
        let tags = html.components(separatedBy: "<link ").dropFirst().map { String($0.prefix { $0 != ">" }) }
        return tags.compactMap { tag in
            var attributes: [String: String] = [:]
            let parts = tag.components(separatedBy: "\"")
            var index = 0
            while index + 1 < parts.count {
                attributes[parts[index].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "=", with: "")] = parts[index + 1]
                index += 2
            }
            return ["icon", "apple-touch-icon", "shortcut icon"].contains(attributes["rel"] ?? "") ? attributes : nil
        }
    }

    /// A PNG's width and height, from its IHDR chunk.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        let number = { (start: Int) in bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test(arguments: [nil, "brand/wide.jpg"])
    func everyPageLinksOneIconSetWhoseFilesHaveTheirDeclaredSizes(icon: String?) throws {
        let site = try Self.site(icon: icon)
        let run = runTomo(["build"], in: site.url)
        #expect(run.status == 0, "\(run.error)")
        let output = fileTree(site.url.appendingPathComponent("public"))
        let pages = output.filter { $0.key.hasSuffix(".html") }
        #expect(pages.count >= 8)
        var sets: Set<[[String: String]]> = []
        for (path, data) in pages {
            let links = Self.iconLinks(String(decoding: data, as: UTF8.self))
            sets.insert(links)
            #expect(!links.isEmpty, "\(path) links no icon")
            #expect(Set(links.map { $0["sizes"] ?? "" }).count == links.count, "\(path): one link per size")
        }
        #expect(sets.count == 1, "every page links the same icons: \(sets)")
        let links = try #require(sets.first)
        if icon == nil {
            #expect(links == [["rel": "icon", "type": "image/svg+xml", "sizes": "any", "href": "/static/icon.svg"]])
        } else {
            #expect(links.map { $0["sizes"] ?? "" } == ["32x32", "180x180", "192x192", "512x512"])
            #expect(links.filter { $0["rel"] == "apple-touch-icon" }.map { $0["sizes"] } == ["180x180"])
        }
        for link in links {
            let href = try #require(link["href"])
            let file = try #require(output[String(href.dropFirst())], "\(href) is in the output")
            if link["type"] == "image/svg+xml" {
                #expect(String(decoding: file, as: UTF8.self).hasPrefix("<svg"))
            } else {
                let side = try #require(Int(link["sizes"]?.split(separator: "x").first ?? ""))
                let size = try #require(Self.pngSize(file), "\(href) is a PNG")
                #expect(size == (side, side), "\(href) is \(size), not \(side)x\(side)")
            }
        }
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    /// A new icon gives new files and every page links them, as a full build would.
    @Test func changingTheIconRebuildsEveryPageAsAFullBuildWould() throws {
        let site = try Self.site(icon: "brand/wide.jpg")
        #expect(runTomo(["build"], in: site.url).status == 0)
        let before = fileTree(site.url.appendingPathComponent("public"))
        Thread.sleep(forTimeInterval: 0.02)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/brand/wide.jpg"))
        try site.copy(sampleJPEG, to: "content/brand/wide.jpg")
        #expect(runTomo(["build"], in: site.url).status == 0)
        let after = fileTree(site.url.appendingPathComponent("public"))
        #expect(after["index.html"] != before["index.html"])
        #expect(after == (try fullBuildOutput(of: site.url)))
        #expect(!after.keys.contains { before[$0] != nil && $0.hasPrefix("media/site-icon-") }, "the old icon files are gone")
    }

    @Test(arguments: [("notes.txt", "not an image libvips can read"), ("brand", "is a folder, not a file")])
    func anIconThatIsNotAnImageIsAnErrorAtItsLine(icon: String, says: String) throws {
        let site = try Self.site(icon: icon)
        try site.write("content/notes.txt", "just text\n")
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("content/site.yaml:3:7: ") && run.error.contains(says), "\(command): \(run.error)")
        }
    }
}
