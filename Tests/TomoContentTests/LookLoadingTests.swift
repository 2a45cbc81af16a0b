import Testing
@testable import TomoContent

/// `theme:` in a profile and in site.yaml: what loads, and where a wrong value is reported.
@Suite struct LookLoadingTests {
    private func site(profile theme: String, site siteTheme: String = "") throws -> SiteFixture {
        try SiteFixture([
            "content/site.yaml": SiteFixture.siteYAML + siteTheme,
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.png\n" + theme,
            "content/users/alice/icon.png": "png",
        ])
    }

    @Test func everyKeyLoads() throws {
        let loaded = try site(profile: "theme:\n  accent: \"#FF8000\"\n  background: [\"#ffd6e0\", lightGray]\n  font: serif\n  buttons: outline\n").load()
        #expect(loaded.diagnostics.isEmpty)
        let look = try #require(loaded.content?.profiles.first?.look)
        #expect(look.accent?.hex == "#ff8000")
        #expect(look.background?.start.hex == "#ffd6e0")
        #expect(look.background?.end.hex == "#aaaaaa")
        #expect(look.font == .serif)
        #expect(look.buttons == .outline)
    }

    @Test func oneColourIsABackgroundToo() throws {
        let look = try #require(try site(profile: "theme:\n  background: yellow\n").load().content?.profiles.first?.look)
        #expect(look.background == Backdrop(try #require(ItemColor("yellow"))))
        #expect(look.background?.isGradient == false)
    }

    /// The site's theme is every profile's; a profile's own keys replace the site's one by one.
    @Test func profileKeysOverrideTheSiteThemeOneByOne() throws {
        let content = try #require(try site(
            profile: "theme:\n  accent: \"#123456\"\n  buttons: square\n",
            site: "theme:\n  accent: red\n  background: \"#000000\"\n  font: mono\n"
        ).load().content)
        let profile = try #require(content.profiles.first)
        let shown = content.config.look.overridden(by: profile.look)
        #expect(shown.accent?.hex == "#123456")
        #expect(shown.background?.start.hex == "#000000")
        #expect(shown.font == .mono)
        #expect(shown.buttons == .square)
        #expect(content.config.look.overridden(by: Look()) == content.config.look)
    }

    @Test(arguments: [
        ("theme:\n  font: comic\n", "content/users/alice.yaml:4:9: unknown font \"comic\": font takes system, serif, rounded or mono"),
        ("theme:\n  font: Serif\n", "content/users/alice.yaml:4:9: unknown font \"Serif\" (did you mean \"serif\"?): font takes system, serif, rounded or mono"),
        ("theme:\n  buttons: round\n", "content/users/alice.yaml:4:12: unknown buttons \"round\": buttons takes rounded, pill, square or outline"),
        ("theme:\n  accent: pruple\n", "content/users/alice.yaml:4:11: unknown colour \"pruple\" (did you mean \"purple\"?)"),
        ("theme:\n  accent: \"#ff80\"\n", "content/users/alice.yaml:4:11: colour \"#ff80\" is not #rrggbb: write six hex digits, e.g. \"#ff8000\""),
        ("theme:\n  background: [\"#ffffff\", \"#12345g\"]\n", "content/users/alice.yaml:4:27: colour \"#12345g\" is not #rrggbb: write six hex digits, e.g. \"#ff8000\""),
        ("theme:\n  background: [red, green, blue]\n", "content/users/alice.yaml:4:15: a background gradient takes two colours, found 3: write `background: [\"#ffd6e0\", \"#c9e7ff\"]` (or one colour)"),
        ("theme:\n  background: {from: red}\n", "content/users/alice.yaml:4:15: expected a string for \"background\", found a mapping (key: value lines)"),
        ("theme:\n  colour: red\n", "content/users/alice.yaml:4:3: unknown key \"colour\" in a theme: a theme takes accent, background, font, buttons"),
        ("theme: dark\n", "content/users/alice.yaml:3:8: expected a theme as `key: value` lines, found a string"),
    ])
    func wrongValuesAreLocatedWithTheFix(theme: String, error: String) throws {
        #expect(try site(profile: theme).errors() == [error])
    }

    @Test func siteThemeErrorsAreLocatedInSiteYAML() throws {
        let errors = try site(profile: "", site: "theme:\n  buttons: rounded\n  font: cursive\n").errors()
        #expect(errors == ["content/site.yaml:5:9: unknown font \"cursive\": font takes system, serif, rounded or mono"])
    }
}
