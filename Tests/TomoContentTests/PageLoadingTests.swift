import Testing
@testable import TomoContent

@Suite struct PageLoadingTests {
    @Test func pageLoadsWithSafeHTML() throws {
        let site = try SiteFixture(["content/pages/about.md": "---\ntitle: About us\ndescription: Who we are\n---\nWe **print**. <script>x()</script> [go](javascript:x())\n"])
        let result = site.load()
        #expect(result.diagnostics.isEmpty)
        let page = try #require(result.content?.pages.first)
        #expect(page.name == "about")
        #expect(page.title == "About us")
        #expect(page.description == "Who we are")
        #expect(page.html == "<p>We <strong>print</strong>. <!-- raw HTML omitted -->x()<!-- raw HTML omitted --> <a href=\"\">go</a></p>\n")
    }

    /// Pages put in a folder of content/pages/ are not read: a warning says so at the folder,
    /// instead of the pages going in silence.
    @Test func aFolderInThePagesFolderIsNamedAsNotRead() throws {
        let site = try SiteFixture([
            "content/pages/about.md": "---\ntitle: About\n---\nHi\n",
            "content/pages/docs/intro.md": "---\ntitle: Intro\n---\nHi\n",
        ])
        let result = site.load()
        #expect(result.content?.pages.map(\.name) == ["about"])
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.map(\.description) == [
            "content/pages/docs/:1:1: ignored: a folder in content/pages/ is not read; free pages are the .md files directly in content/pages/ (move its pages up)",
        ])
    }

    @Test func unclosedFrontMatterIsAnError() throws {
        let site = try SiteFixture(["content/pages/about.md": "---\ntitle: About\n\nHello\n"])
        #expect(site.errors() == [
            "content/pages/about.md:1:1: the front matter opened on line 1 is not closed: add a line with only `---` after its last field",
        ])
    }

    @Test func frontMatterErrorsHaveTheFilesLineNumbers() throws {
        let site = try SiteFixture(["content/pages/about.md": "---\ntitle: About\ntitel: Typo\n---\nBody\n"])
        #expect(site.errors() == ["content/pages/about.md:3:1: unknown key \"titel\" in a page's front matter (did you mean \"title\"?)"])
    }

    @Test func draftIsReadAsABooleanAndAnythingElseIsAnErrorAtItsValue() throws {
        let draft = try SiteFixture(["content/pages/about.md": "---\ntitle: About\ndraft: true\n---\nBody\n"])
        #expect(draft.load().content?.pages.first?.draft == true)
        let page = try SiteFixture(["content/pages/about.md": "---\ntitle: About\n---\nBody\n"])
        #expect(page.load().content?.pages.first?.draft == false)
        for value in ["no", "\"false\"", "0", "{a: 1}"] {
            let site = try SiteFixture(["content/pages/about.md": "---\ntitle: About\ndraft: \(value)\n---\nBody\n"])
            #expect(site.errors().count == 1, "\(value)")
            #expect(site.errors().first?.hasPrefix("content/pages/about.md:3:8: expected true or false for \"draft\"") == true, "\(value): \(site.errors())")
        }
    }

    @Test func pageWithoutTitleIsAnError() throws {
        let site = try SiteFixture(["content/pages/about.md": "Just text\n"])
        #expect(site.errors() == [
            "content/pages/about.md:1:1: a page starts with front matter: put `---`, `title: About`, `---` on the first three lines",
        ])
    }

    @Test func pageNameMayNotBeAHandleOrReserved() throws {
        let site = try SiteFixture([
            "content/pages/alice.md": "---\ntitle: A\n---\n",
            "content/pages/feed.md": "---\ntitle: F\n---\n",
            "content/pages/About.md": "---\ntitle: A\n---\n",
            "content/users/alice.yaml": "name: Alice\n",
        ])
        #expect(site.errors() == [
            "content/pages/About.md:1:1: bad page name: slug \"About\" may use only a-z, 0-9 and - (try \"about\")",
            "content/pages/alice.md:1:1: bad page name: \"alice\" is also a user's handle and both would be /alice/: rename the file",
            "content/pages/feed.md:1:1: bad page name: \"feed\" is reserved for the site's own pages: rename the file",
        ])
        #expect(site.load().pageFileCount == 3)
    }
}
