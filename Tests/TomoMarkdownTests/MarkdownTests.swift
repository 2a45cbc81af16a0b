import Testing
@testable import TomoMarkdown

@Suite struct MarkdownTests {
    @Test func rendersCommonMark() {
        #expect(Markdown.html("Photographer in **Tokyo**.") == "<p>Photographer in <strong>Tokyo</strong>.</p>\n")
    }

    @Test func rawHTMLIsOmitted() {
        let html = Markdown.html("Hi <script>alert(1)</script> there\n\n<div onclick=\"x()\">block</div>\n")
        #expect(!html.contains("<script"))
        #expect(!html.contains("onclick"))
        #expect(html.contains("<!-- raw HTML omitted -->"))
    }

    @Test func javascriptLinkGetsAnEmptyAddress() {
        let html = Markdown.html("[click](javascript:alert(1)) and [ok](https://example.com)")
        #expect(html == "<p><a href=\"\">click</a> and <a href=\"https://example.com\">ok</a></p>\n")
    }

    /// Only http, https and mailto addresses are kept, in any letter case; any other scheme
    /// (`ftp:`, `tel:`, `intent:`, `data:image/…`, made-up ones) gets an empty address, and an
    /// image without one shows its description. Addresses without a scheme stay, but for those
    /// that start with `//`, which name another site.
    @Test(arguments: [
        ("[a](x-evil:payload)", ##"<p><a href="">a</a></p>"##),
        ("[a](ftp://host/file)", ##"<p><a href="">a</a></p>"##),
        ("[a](tel:+81312345678)", ##"<p><a href="">a</a></p>"##),
        ("[a](intent://scan/#Intent;end)", ##"<p><a href="">a</a></p>"##),
        ("[a](ms-settings:privacy)", ##"<p><a href="">a</a></p>"##),
        ("![a photo](data:image/png;base64,AAAA)", "<p>a photo</p>"),
        ("[a](HTTPS://Example.com/)", ##"<p><a href="HTTPS://Example.com/">a</a></p>"##),
        ("[a](MAILTO:a@example.com)", ##"<p><a href="MAILTO:a@example.com">a</a></p>"##),
        ("[a](/about/)", ##"<p><a href="/about/">a</a></p>"##),
        ("[a](#top)", ##"<p><a href="#top">a</a></p>"##),
        ("[a](notes/a:b.html)", ##"<p><a href="notes/a:b.html">a</a></p>"##),
        ("<x-evil:payload>", ##"<p><a href="">x-evil:payload</a></p>"##),
        // Two slashes lead to another site, whatever they look like: written as its address.
        ("[a](//evil.example/p)", ##"<p><a href="https://evil.example/p">a</a></p>"##),
        ("[a](///evil.example/p)", ##"<p><a href="https:///evil.example/p">a</a></p>"##),
        ("![i](//evil.example/pixel.png)", ##"<p><img src="https://evil.example/pixel.png" alt="i" /></p>"##),
    ])
    func onlyHTTPAndMailtoAddressesAreKept(markdown: String, html: String) {
        #expect(Markdown.html(markdown) == html + "\n")
    }

    @Test func textIsEscaped() {
        #expect(Markdown.html("a < b & \"c\"") == "<p>a &lt; b &amp; &quot;c&quot;</p>\n")
    }

    @Test func firstParagraphJoinsItsLinesAndDropsMarkup() {
        #expect(Markdown.firstParagraphPlainText("Photographer in **Tokyo**.\nSecond line.\n\nMore.") == "Photographer in Tokyo. Second line.")
        #expect(Markdown.firstParagraphPlainText("- 東京の写真家\n- two") == "東京の写真家")
        #expect(Markdown.firstParagraphPlainText("> quoted [link](https://x.example)\n> on two lines\n\nrest") == "quoted link on two lines")
    }

    @Test func firstLineDropsMarkupAndStopsAtTheLineBreak() {
        #expect(Markdown.firstLinePlainText("Photographer in **Tokyo**.\nSecond line.\n\nMore.") == "Photographer in Tokyo.")
        #expect(Markdown.firstLinePlainText("# Hello `world`\n\ntext") == "Hello world")
        #expect(Markdown.firstLinePlainText("<b>raw</b> and [a link](https://x.example)") == "raw and a link")
        #expect(Markdown.firstLinePlainText("\n\n  ") == "")
        #expect(Markdown.firstLinePlainText("- 東京の写真家\n- two") == "東京の写真家")
    }
}
