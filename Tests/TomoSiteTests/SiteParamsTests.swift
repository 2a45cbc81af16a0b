import Foundation
import Testing
@testable import TomoSite

/// `params:` of site.yaml reach every template as `site.params`, escaped like all text, and an
/// edit of them alone rebuilds every page that shows them.
@Suite struct SiteParamsTests {
    static func siteYAML(accent: String) -> String {
        """
        title: Test site
        baseURL: https://example.com/
        params:
          accent: "\(accent)"
          menu:
            - title: Blog
              url: https://blog.example.com/
            - title: Shop
              url: https://shop.example.com/
          footer:
            note: <script>alert(1)</script>

        """
    }

    /// A layout of a theme of its own that reads its settings, on every page it renders.
    static let layout = """
        <!doctype html><html><head><title>{{page.title}}</title></head><body style="--accent: {{site.params.accent}}">
        <nav>{{#site.params.menu}}<a href="{{url}}">{{title}}</a>{{/site.params.menu}}</nav>
        {{$content}}{{/content}}<footer>{{site.params.footer.note}}</footer></body></html>
        """

    func site(accent: String = "#ff8800") throws -> SiteFolder {
        try SiteFolder([
            "content/site.yaml": Self.siteYAML(accent: accent),
            "content/users/alice.yaml": "name: Alice\n",
            "content/pages/about.md": "---\ntitle: About\n---\nAbout us.\n",
            "templates/layout.mustache": Self.layout,
        ])
    }

    @Test func everyPageReceivesTheParamsEscaped() throws {
        let site = try site()
        try site.build()
        for path in ["index.html", "alice/index.html", "about/index.html", "404.html"] {
            let page = try #require(site.page(path), "\(path)")
            #expect(page.contains("style=\"--accent: #ff8800\""), "\(path)")
            #expect(page.contains("<a href=\"https://blog.example.com/\">Blog</a><a href=\"https://shop.example.com/\">Shop</a>"), "\(path)")
            #expect(page.contains("<footer>&lt;script&gt;alert(1)&lt;/script&gt;</footer>"), "\(path)")
            #expect(!page.contains("<script>alert"), "\(path)")
        }
    }

    @Test func anEditOfTheParamsAloneRebuildsThePagesThatShowThem() throws {
        let site = try site()
        try site.build()
        Thread.sleep(forTimeInterval: 0.01)
        try site.write("content/site.yaml", Self.siteYAML(accent: "#0055aa"))
        let report = try site.build()
        #expect(!report.nothingChanged)
        for path in ["index.html", "alice/index.html", "about/index.html", "404.html"] {
            #expect(site.page(path)?.contains("--accent: #0055aa") == true, "\(path)")
        }
        #expect(try site.outputFiles() == site.fullBuild())
    }
}
