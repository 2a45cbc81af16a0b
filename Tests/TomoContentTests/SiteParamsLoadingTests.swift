import Testing
import TomoCore
@testable import TomoContent

/// `params:` in site.yaml: any mapping, nested, read as it is written, with only the rules every
/// content file keeps (no control characters, finite numbers) and bounded nesting.
@Suite struct SiteParamsLoadingTests {
    func site(_ params: String) throws -> SiteFixture {
        try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams:\n" + params])
    }

    @Test func anyNestedMappingIsReadAsWritten() throws {
        let site = try site("""
          accent: "#ff8800"
          columns: 3
          ratio: 1.5
          dark: true
          tagline: ~
          menu:
            - title: Home
              url: /
            - title: Blog
              url: https://blog.example.com/
          footer:
            text: <b>Made</b> with care
            year: 2026

        """)
        let result = site.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let params = try #require(result.content?.config.params)
        #expect(params == [
            "accent": "#ff8800", "columns": 3, "ratio": .double(1.5), "dark": true, "tagline": .null,
            "menu": [["title": "Home", "url": "/"], ["title": "Blog", "url": "https://blog.example.com/"]],
            "footer": ["text": "<b>Made</b> with care", "year": 2026],
        ])
    }

    @Test func withoutParamsTheyAreEmpty() throws {
        let config = try #require(SiteFixture().load().content?.config)
        #expect(config.params.isEmpty)
    }

    /// Escapes can spell what the raw-file check refuses: every key and every text value, at
    /// any depth, is held to the same rule, and every such place is reported.
    @Test func controlCharactersInKeysAndValuesAreErrorsAtTheirPlace() throws {
        let site = try site("""
          bell: "ring\\a"
          deep:
            list: [ok, "next\\u0085line"]
          "key\\e": x

        """)
        let errors = site.errors()
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/site.yaml:4:9: params.bell holds the control character U+0007") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/site.yaml:6:16: params.deep.list[1] holds the control character U+0085") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/site.yaml:7:3: a key of params holds the control character U+001B") }, "\(errors)")
    }

    @Test func paramsThatAreNotAMappingAreAnError() throws {
        let list = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams: [a, b]\n"])
        #expect(list.errors() == ["content/site.yaml:3:9: expected params as `key: value` lines (a theme's own settings), found a list"])
        let empty = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams:\n"])
        #expect(empty.errors().count == 1)
        #expect(empty.errors().first?.contains("\"params\" has no value") == true, "\(empty.errors())")
    }

    @Test func infiniteAndNotANumberAreErrors() throws {
        let site = try site("  big: .inf\n  odd: .nan\n  quoted: \".inf\"\n")
        #expect(site.errors() == [
            "content/site.yaml:4:8: params.big is not a finite number: put it in quotes to keep it as text",
            "content/site.yaml:5:8: params.odd is not a finite number: put it in quotes to keep it as text",
        ])
    }

    /// Nesting is bounded: one level past the limit is an error at that value, and nesting as
    /// deep as the YAML parser allows is an error too, never a crash.
    @Test func deepNestingIsAnErrorNotACrash() throws {
        func nested(_ levels: Int) -> String {
            // `params:` is level 1; each `{a: …}` one more.
            String(repeating: "{a: ", count: levels - 1) + "1" + String(repeating: "}", count: levels - 1)
        }
        let deepest = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams: \(nested(SiteParams.maximumDepth))\n"])
        #expect(deepest.errors().isEmpty, "\(deepest.errors())")
        let tooDeep = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams: \(nested(SiteParams.maximumDepth + 1))\n"])
        let errors = tooDeep.errors()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("params nest deeper than \(SiteParams.maximumDepth) levels at params" + String(repeating: ".a", count: SiteParams.maximumDepth)) == true, "\(errors)")
        let list = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://example.com/\nparams: {a: " + String(repeating: "[", count: 190) + String(repeating: "]", count: 190) + "}\n"])
        #expect(list.errors().count == 1, "\(list.errors())")
    }
}
