import Foundation
import Testing
import TomoCore
@testable import TomoSite

@Suite struct SiteBuildTests {
    static let alice = """
    name: Alice Example
    bio: |
      Photographer in **Tokyo**.
    links:
      mastodon: https://mastodon.social/@alice
      website: https://alice.example
    items:
      - text: Hello, I shoot film.
      - text: Portfolio
        url: https://alice.example/portfolio
        color: orange
    email: alice@example.com
    """

    @Test func writesEveryPageAtTheDesignsPaths() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": Self.alice,
            "content/users/bob.yaml": "name: Bob\n",
            "content/pages/about.md": "---\ntitle: About us\n---\nWe make *sites*.\n",
        ])
        let report = try site.build()
        #expect(report.pages == 14)
        let files = Set(site.outputFiles().keys)
        for path in ["index.html", "404.html", "alice/index.html", "bob/index.html", "about/index.html", "sitemap.xml", "search.json", "static/style.css",
                     "alice/followers/index.html", "alice/following/index.html", "bob/followers/index.html", "bob/following/index.html",
                     "alice/timeline/index.html", "alice/feed.xml", "feed.xml"] {
            #expect(files.contains(path), "\(path)")
        }
    }

    @Test func buildOutputNeverCarriesTheLiveReloadScript() throws {
        let site = try SiteFolder(["content/users/alice.yaml": Self.alice])
        try site.build()
        for (path, text) in site.outputFiles() {
            #expect(!text.contains("/_tomo/"), "\(path)")
        }
    }

    @Test func profilePageShowsTheProfileAndKeepsThePageContract() throws {
        let site = try SiteFolder(["content/users/alice.yaml": Self.alice])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        #expect(page.contains(#"<main class="profile" data-handle="alice">"#))
        #expect(page.contains("<h1 class=\"name p-name\" dir=\"auto\">Alice Example</h1>"))
        #expect(page.contains("<p>Photographer in <strong>Tokyo</strong>.</p>"))
        #expect(page.contains(#"href="https://mastodon.social/@alice" rel="me""#))
        #expect(page.contains(#"href="https://alice.example" rel="me""#), "every own link says it is the user's")
        #expect(page.contains(#"<li class="item item-comment" dir="auto" style="background-color: #000000; color: #ffffff">Hello, I shoot film.</li>"#))
        #expect(page.contains(#"<a href="https://alice.example/portfolio" style="color: #000000">Portfolio</a>"#))
        #expect(page.contains(#"<meta property="og:url" content="https://example.com/alice/">"#))
        #expect(page.contains(#"<meta name="twitter:card""#))
        let home = try #require(site.page("index.html"))
        #expect(home.contains(#"<li class="user-card" data-handle="alice">"#))
    }

    @Test func theEmailIsPublishedOnlyWithShowEmail() throws {
        let site = try SiteFolder(["content/users/alice.yaml": Self.alice])
        try site.build()
        for (path, text) in site.outputFiles() {
            #expect(!text.contains("alice@example.com"), "\(path) leaks the e-mail address")
        }
        try site.write("content/users/alice.yaml", Self.alice + "\nshowEmail: true\n")
        try site.build()
        #expect(site.page("alice/index.html")?.contains(#"<a href="mailto:alice@example.com">alice@example.com</a>"#) == true)
    }

    /// `links.email`, `email` and `contact` each take a bare address or a `mailto:` URL of one;
    /// every form gives the same one `mailto:` link, never `mailto:mailto:`.
    @Test(arguments: ["a.b@photos.example", "mailto:a.b@photos.example", "MAILTO:a.b@photos.example", "Mailto:a.b@photos.example"])
    func everyEmailFormGivesOneMailtoLink(value: String) throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "contact: \(value)\n",
            "content/users/alice.yaml": "name: Alice\nlinks:\n  email: \"\(value)\"\nemail: \(value)\nshowEmail: true\n",
        ])
        try site.build()
        let page = try #require(site.page("alice/index.html"))
        #expect(page.components(separatedBy: #"href="mailto:a.b@photos.example""#).count - 1 == 3, "the link, the shown address and the contact")
        #expect(page.contains(#">a.b@photos.example</a>"#))
        for (path, text) in site.outputFiles() {
            #expect(!text.lowercased().contains("mailto:mailto:"), "\(path)")
        }
    }

    /// What is not one address is refused where it is written, in every field that takes one.
    @Test(arguments: ["mailto:mailto:a@b.example", "a@b", "mailto:a@b.example?subject=Hi", "a@b.example,c@d.example", "mailto:", "a@b.example/x", "a#b@c.example"])
    func anythingButOneAddressIsRefused(value: String) throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "contact: \"\(value)\"\n",
            "content/users/alice.yaml": "name: Alice\nlinks:\n  email: \"\(value)\"\nemail: \"\(value)\"\n",
        ])
        let errors = try #require(site.buildErrors())
        #expect(errors.filter { $0.contains("is not an e-mail address") }.map { String($0.prefix { $0 != " " }) }.sorted()
            == ["content/site.yaml:3:10:", "content/users/alice.yaml:3:10:", "content/users/alice.yaml:4:8:"])
    }

    @Test func everyUserTextIsEscaped() throws {
        let evil = #"<script>alert("x")</script> & 'quote'"#
        let site = try SiteFolder([
            "content/site.yaml": "title: '\(evil.replacingOccurrences(of: "'", with: "''"))'\nbaseURL: https://example.com/\ndescription: '\(evil.replacingOccurrences(of: "'", with: "''"))'\n",
            "content/users/mallory.yaml": """
            name: '\(evil.replacingOccurrences(of: "'", with: "''"))'
            bio: |
              <script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3))
            items:
              - text: '\(evil.replacingOccurrences(of: "'", with: "''"))'
              - text: link
                url: https://example.com/?a='b'&c=d
            """,
            "content/pages/about.md": "---\ntitle: '\(evil.replacingOccurrences(of: "'", with: "''"))'\n---\n<script>alert(4)</script>\n",
        ])
        try site.build()
        for (path, text) in site.outputFiles() where path.hasSuffix(".html") {
            #expect(!text.contains("<script>alert"), "\(path) carries a script from user text")
            #expect(!text.contains("onerror"), "\(path) carries an event handler from user text")
            #expect(!text.contains("javascript:"), "\(path) carries a javascript: link")
        }
        let profile = try #require(site.page("mallory/index.html"))
        #expect(profile.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39;"))
        // A link holds no `"` or `<>` (refused), but `'` and `&` are escaped in its attribute.
        #expect(profile.contains(#"href="https://example.com/?a=&#39;b&#39;&amp;c=d""#))
        #expect(site.page("search.json")?.contains(#""name":"<script>alert(\"x\")</script> & 'quote'""#) == true)
    }

    @Test func unsafeURLsAreErrorsNotLinks() throws {
        let site = try SiteFolder([
            "content/users/eve.yaml": "name: Eve\nlinks:\n  website: javascript:alert(1)\nitems:\n  - text: x\n    url: data:text/html,hi\n",
        ])
        let errors = try #require(site.buildErrors())
        #expect(errors.count == 2)
        #expect(errors[0].hasPrefix("content/users/eve.yaml:3:12:"))
        #expect(errors[1].hasPrefix("content/users/eve.yaml:6:10:"))
        #expect(site.page("index.html") == nil)
    }

    @Test func aFailedBuildLeavesThePreviousOutputUntouchedAndReportsEveryError() throws {
        let site = try SiteFolder(["content/users/alice.yaml": Self.alice, "content/users/bob.yaml": "name: Bob\n"])
        try site.build()
        let before = site.outputFiles()
        let indexDate = try site.modificationDate("index.html")
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: x\n    color: pruple\n")
        try site.write("content/users/bob.yaml", "nme: Bob\n")
        let errors = try #require(site.buildErrors())
        #expect(errors == [
            "content/users/alice.yaml:4:12: unknown colour \"pruple\" (did you mean \"purple\"?)",
            "content/users/bob.yaml:1:1: unknown key \"nme\" in a profile (did you mean \"name\"?)",
            "content/users/bob.yaml:1:1: \"name\" is missing or empty: add a line like `name: Alice Example`",
        ])
        #expect(site.outputFiles() == before)
        #expect(try site.modificationDate("index.html") == indexDate)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    @Test func aRebuildWithoutChangesRewritesNothing() throws {
        let site = try SiteFolder(["content/users/alice.yaml": Self.alice])
        let first = try site.build()
        #expect(first.written == first.files)
        let date = try site.modificationDate("alice/index.html")
        Thread.sleep(forTimeInterval: 0.02)
        let second = try site.build()
        #expect(second.written == 0)
        #expect(second.files == first.files)
        #expect(try site.modificationDate("alice/index.html") == date)
    }

    @Test func disabledPageKindsAreNotWrittenNorLinked() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "disableKinds: [timeline, followers, following, feed]\n",
            "content/users/alice.yaml": Self.alice,
        ])
        try site.build()
        let files = Set(site.outputFiles().keys)
        #expect(files.contains("alice/index.html"))
        for gone in ["feed.xml", "alice/feed.xml", "alice/timeline/index.html", "alice/followers/index.html", "alice/following/index.html"] {
            #expect(!files.contains(gone), "\(gone) is written")
        }
        for page in [site.page("alice/index.html"), site.page("index.html")] {
            for link in ["/alice/timeline/", "/alice/followers/", "/alice/following/", "feed.xml"] {
                #expect(page?.contains(link) == false, "a page links to \(link)")
            }
        }
        #expect(site.page("alice/index.html")?.contains("0 followers") == true)
    }

    @Test func hiddenAndOutOfDateItemsAreLeftOut() throws {
        let site = try SiteFolder(["content/users/alice.yaml": """
        name: Alice
        items:
          - text: Always
          - text: Secret draft
            hidden: true
          - text: Summer sale
            from: 2026-06-01
            until: 2026-08-31
        """])
        var components = DateComponents()
        components.year = 2026
        components.month = 7
        components.day = 1
        let july = try #require(Calendar(identifier: .gregorian).date(from: components))
        try site.build(date: july)
        #expect(site.page("alice/index.html")?.contains("Summer sale") == true)
        #expect(site.page("alice/index.html")?.contains("Secret draft") == false)
        components.month = 10
        try site.build(date: try #require(Calendar(identifier: .gregorian).date(from: components)))
        #expect(site.page("alice/index.html")?.contains("Summer sale") == false)
        #expect(site.page("alice/index.html")?.contains("Always") == true)
    }

    @Test func aSiteTemplateReplacesTheBuiltInOneFileByFile() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "templates/user-card.mustache": "<li class=\"mine\" data-handle=\"{{handle}}\">{{name}}</li>\n",
            "templates/static/extra.css": "body{}\n",
        ])
        try site.build()
        #expect(site.page("index.html")?.contains(#"<li class="mine" data-handle="alice">Alice</li>"#) == true)
        #expect(site.page("alice/index.html")?.contains("profile-card") == true)
        #expect(site.page("static/extra.css") == "body{}\n")
        #expect(site.page("static/style.css") != nil)
    }

    @Test func aBrokenSiteTemplateIsReportedWithItsLocation() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "templates/profile.mustache": "{{#user}}\n{{name}}\n"])
        #expect(site.buildErrors() == ["templates/profile.mustache:1:1: {{#user}} is never closed: add {{/user}}"])
    }

    @Test func japaneseSitesGetJapaneseLabels() throws {
        let site = try SiteFolder([
            "content/site.yaml": "title: テスト\nbaseURL: https://example.com/\nlanguage: ja\n",
            "content/users/hana.yaml": "name: 花子\n",
        ])
        try site.build()
        let home = try #require(site.page("index.html"))
        #expect(home.contains(#"<html lang="ja">"#))
        #expect(home.contains("新しいユーザー"))
        #expect(site.page("404.html")?.contains("ページが見つかりません") == true)
    }

    @Test func sitemapAndSearchIndexListEveryUserWithAbsoluteURLs() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob & Co\n"])
        try site.build()
        let sitemap = try #require(site.page("sitemap.xml"))
        #expect(sitemap.contains("<loc>https://example.com/alice/</loc>"))
        #expect(sitemap.contains("<loc>https://example.com/bob/</loc>"))
        let index = try JSONParser.parse(try #require(site.page("search.json")), file: "search.json")
        let handles = index["users"]?.arrayValue?.compactMap { $0["handle"]?.stringValue }
        #expect(Set(handles ?? []) == ["alice", "bob"])
    }

    /// A real 256×256 JPEG from the demo site.
    static let demoIcon = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    @Test func usersImagesArePublishedAsResponsiveThumbnailsUnderTheirHandle() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n"])
        try site.write("content/users/alice/icon.jpg", bytes: Array(try Data(contentsOf: Self.demoIcon)))
        let report = try site.build()
        #expect(report.images == 1)
        let files = site.outputFiles().keys.filter { $0.hasPrefix("media/alice/icon-") }.sorted()
        #expect(files.count == 2)
        #expect(files.contains { $0.hasSuffix("-256.webp") } && files.contains { $0.hasSuffix("-256.jpg") })
        let page = try #require(site.page("alice/index.html"))
        #expect(page.contains(#"<source type="image/webp" srcset="/media/alice/icon-"#))
        #expect(page.contains(#"width="256" height="256" alt="Alice" loading="eager">"#))
        let second = try site.build()
        #expect(second.written == 0)
    }

    @Test func aBrokenImageIsAnErrorNamingTheFile() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n"])
        try site.write("content/users/alice/icon.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 1, 2, 3])
        let errors = try #require(site.buildErrors())
        #expect(errors.count == 1)
        // At the profile's `icon:` line, naming the image.
        #expect(errors.first?.hasPrefix("content/users/alice.yaml:2:7: content/users/alice/icon.jpg: not an image libvips can read") == true)
        #expect(site.page("index.html") == nil)
    }

}

/// Without JavaScript there is no search: the form is hidden until search.js shows it, so that
/// submitting it never opens the raw index.
@Suite struct SearchFormTests {
    @Test func theSearchFormIsHiddenUntilTheScriptShowsIt() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        try site.build()
        let home = try #require(site.page("index.html"))
        let form = try #require(home.firstRange(of: "<form class=\"search\"").map { String(home[$0.lowerBound...].prefix { $0 != ">" }) })
        #expect(form.hasSuffix(" hidden"), "\(form)")
        let script = try #require(site.page("static/search.js"))
        #expect(script.contains("input.form.hidden = false;"))
        #expect(try #require(site.page("static/style.css")).contains(".search[hidden] { display: none; }"))
    }
}

@Suite struct SiteCheckTests {
    @Test func warnsAboutAPartialThatDoesNotExistWithItsLocation() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n",
            "templates/user-card.mustache": "<li data-handle=\"{{handle}}\">\n  {{>badge}}{{>user-card-extra}}\n</li>\n",
        ])
        try site.write("content/users/alice/icon.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        let result = SiteChecker.check(site: site.root)
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.description) == [
            "templates/user-card.mustache:2:3: the partial \"badge\" does not exist, so this tag renders nothing (add templates/badge.mustache)",
            "templates/user-card.mustache:2:13: the partial \"user-card-extra\" does not exist, so this tag renders nothing (add templates/user-card-extra.mustache)",
        ])
    }

    @Test func reportsBrokenTemplatesAndAnUnreadableStore() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "templates/profile.mustache": "{{#user}}",
            "content/store.json": "{\"version\": 99}",
        ])
        let messages = SiteChecker.check(site: site.root).errors.map(\.description)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.hasPrefix("templates/profile.mustache:1:1: {{#user}} is never closed") })
        #expect(messages.contains { $0.hasPrefix("content/store.json") && $0.contains("newer") })
    }
}
