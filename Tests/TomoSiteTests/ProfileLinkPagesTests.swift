import Foundation
import Testing
import TomoContent
import TomoCore
@testable import TomoSite

@Suite struct ProfileLinkPagesTests {
    /// The mark's path data as the repository's brand table (templates/icons/brands.tsv) has it.
    private func markPath(_ slug: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("templates/icons/brands.tsv")
        let table = try String(contentsOf: file, encoding: .utf8)
        let line = try #require(table.split(separator: "\n").first { $0.hasPrefix(slug + "\t") })
        return String(line.split(separator: "\t")[2])
    }

    /// The profile page's list of links, one `<li>` each.
    private func linkItems(_ page: String) throws -> [String] {
        let start = try #require(page.range(of: #"<ul class="links">"#))
        let end = try #require(page.range(of: "</ul>", range: start.upperBound..<page.endIndex))
        return page[start.upperBound..<end.lowerBound].components(separatedBy: "<li>").dropFirst().map { $0 }
    }

    @Test func brandsShowTheirMarkAndNameAfterTheThemesOwnServices() throws {
        let site = try SiteFolder(["content/users/alice.yaml": """
        name: Alice
        links:
          misskey: https://misskey.io/@alice
          discord: https://discord.gg/alice
          github: https://github.com/alice
          twitch: https://twitch.tv/alice
          x: https://x.com/alice
          line: https://line.me/ti/p/alice

        """])
        try site.build()
        let items = try linkItems(try #require(site.page("alice/index.html")))
        let expected: [(service: String, label: String, url: String)] = [
            ("twitter", "X (Twitter)", "https://x.com/alice"), ("github", "GitHub", "https://github.com/alice"),
            ("misskey", "Misskey", "https://misskey.io/@alice"), ("discord", "Discord", "https://discord.gg/alice"),
            ("twitch", "Twitch", "https://twitch.tv/alice"), ("line", "LINE", "https://line.me/ti/p/alice"),
        ]
        #expect(items.count == expected.count)
        for (item, link) in zip(items, expected) {
            #expect(item.contains(#"<a class="link link-\#(link.service)" href="\#(link.url)" rel="me">"#), "\(item)")
            #expect(item.contains(#"<span class="label" dir="auto">\#(link.label)</span>"#), "\(item)")
        }
        // The theme's own keep their icons; the brands get their Simple Icons mark, drawn in the
        // text's colour and hidden from screen readers (the label says it).
        #expect(items[1].contains(">GH</text>"))
        #expect(!items[0].contains("<path"))
        for (item, slug) in zip(items.dropFirst(2), ["misskey", "discord", "twitch", "line"]) {
            let svg = #"<svg class="service-icon brand-icon" viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false"><path d=""#
            #expect(item.contains(svg + (try markPath(slug)) + #""/></svg>"#), "\(slug)")
        }
    }

    @Test func listedLinksShowTheirOwnIconThumbnailsAndEscapedLabels() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": """
            name: Alice
            links:
              - label: <b>Shop</b> & "café"
                url: https://shop.example/?a=1&b=2
                icon: alice/shop.png
              - service: discord
                url: https://discord.gg/alice
              - label: Notes
                url: https://notes.example/
            items:
              - text: Sale <now>
                url: https://shop.example/sale
                icon: alice/sale.png

            """,
        ])
        try site.write("content/users/alice/shop.png", bytes: TestPNG.grey(width: 64, height: 64))
        try site.write("content/users/alice/sale.png", bytes: TestPNG.grey(width: 48, height: 48))
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        let items = try linkItems(page)
        #expect(items.count == 3)
        // As the list writes them; the label escaped, the icon a thumbnail of the media folder.
        #expect(items[0].contains(#"<span class="label" dir="auto">&lt;b&gt;Shop&lt;/b&gt; &amp; &quot;café&quot;</span>"#), "\(items[0])")
        #expect(items[0].contains(#"href="https://shop.example/?a=1&amp;b=2""#))
        #expect(!items[0].contains("<b>"))
        let discord = try markPath("discord")
        #expect(items[1].contains(#"<span class="label" dir="auto">Discord</span>"#) && items[1].contains(discord))
        #expect(items[2].contains(#"class="link link-custom""#) && items[2].contains(">Notes</span>"))
        for (html, name) in [(items[0], "shop"), (page, "sale")] {
            let start = try #require(html.range(of: #"src="/media/alice/\#(name)-"#), "\(name)")
            let src = html[html.index(start.lowerBound, offsetBy: 6)...].prefix { $0 != "\"" }
            #expect(src.hasSuffix(".jpg"), "\(src)")
            #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent(String(src)).path), "\(src)")
        }
        #expect(page.contains("Sale &lt;now&gt;</a>"))
        #expect(page.contains(#"class="item-icon""#))
    }

    @Test func changingALinkOrItemIconRebuildsLikeAFullBuild() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nlinks:\n  - label: Shop\n    url: https://shop.example/\n    icon: alice/shop.png\nitems:\n  - text: Hi\n    icon: alice/hi.png\n",
        ])
        try site.write("content/users/alice/shop.png", bytes: TestPNG.grey(width: 64, height: 64))
        try site.write("content/users/alice/hi.png", bytes: TestPNG.grey(width: 40, height: 40))
        try site.build()
        let before = try #require(site.page("alice/index.html"))
        for (path, size) in [("content/users/alice/shop.png", 80), ("content/users/alice/hi.png", 72)] {
            // Same path, other bytes: other thumbnails, named by their content.
            try site.write(path, bytes: TestPNG.grey(width: size, height: size))
            try site.build()
            #expect(site.outputFiles() == (try site.fullBuild()), "\(path)")
        }
        #expect(site.page("alice/index.html") != before)
        // The icon goes from the profile: its thumbnails go from the output.
        try site.write("content/users/alice.yaml", "name: Alice\nlinks:\n  - label: Shop\n    url: https://shop.example/\n")
        try site.build()
        #expect(site.outputFiles() == (try site.fullBuild()))
        #expect(!site.outputFiles().keys.contains { $0.hasPrefix("media/alice/shop-") })
    }

    @Test func thePreviewFollowsLinkAndItemIconsAsAFreshBuildWould() throws {
        let profile = "name: Alice\nlinks:\n  - label: Shop\n    url: https://shop.example/\n    icon: alice/shop.png\nitems:\n  - text: Hi\n    icon: alice/hi.png\n"
        let site = try SiteFolder(["content/users/alice.yaml": profile])
        try site.write("content/users/alice/shop.png", bytes: TestPNG.grey(width: 64, height: 64))
        try site.write("content/users/alice/hi.png", bytes: TestPNG.grey(width: 40, height: 40))
        let session = SiteSession<[UInt8]>(options: BuildOptions(site: site.root))
        var shown = try session.buildAll().files
        let edits: [(path: String, write: () throws -> Void)] = [
            ("content/users/alice/shop.png", { try site.write("content/users/alice/shop.png", bytes: TestPNG.grey(width: 80, height: 80)) }),
            ("content/users/alice/hi.png", { try site.write("content/users/alice/hi.png", bytes: TestPNG.grey(width: 72, height: 72)) }),
            ("content/users/alice.yaml", { try site.write("content/users/alice.yaml", "name: Alice\nlinks:\n  - label: Shop\n    url: https://shop.example/\n") }),
            ("content/users/alice.yaml", { try site.write("content/users/alice.yaml", profile) }),
        ]
        for (path, write) in edits {
            try write()
            let update = try session.rebuild(changedPaths: [path])
            for gone in update.removed { shown[gone] = nil }
            shown.merge(update.files) { _, new in new }
            let fresh = try SiteSession<[UInt8]>(options: BuildOptions(site: site.root)).buildAll().files
            #expect(shown.keys.sorted() == fresh.keys.sorted(), "after \(path)")
            #expect(shown == fresh, "after \(path)")
        }
    }
}
