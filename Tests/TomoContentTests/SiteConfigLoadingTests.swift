import Testing
import TomoCore
@testable import TomoContent

@Suite struct SiteConfigLoadingTests {
    @Test func defaultsApply() throws {
        let site = try SiteFixture(["content/site.yaml": "title: Photos\nbaseURL: https://photos.example\n"])
        let config = try #require(site.load().content?.config)
        #expect(config.title == "Photos")
        #expect(config.baseURL == "https://photos.example/")
        #expect(config.language == .english)
        #expect(config.homeUsers == 50)
        #expect(config.pageSize == 20)
        #expect(config.imageWidths == [320, 640, 1280])
        #expect(config.contact == nil)
    }

    @Test func everyFieldIsRead() throws {
        let site = try SiteFixture(["content/site.yaml": """
            title: 写真の町
            baseURL: https://photos.example/tokyo/
            language: ja
            description: Photographers of Tokyo
            homeUsers: 12
            pageSize: 5
            contact: mailto:hello@photos.example
            images:
              widths: [640, 320, 640]

            """])
        let result = site.load()
        #expect(result.diagnostics.isEmpty)
        let config = try #require(result.content?.config)
        #expect(config.title == "写真の町")
        #expect(config.language == LanguageTag("ja"))
        #expect(config.description == "Photographers of Tokyo")
        #expect(config.homeUsers == 12)
        #expect(config.pageSize == 5)
        #expect(config.contact == "hello@photos.example")
        #expect(config.imageWidths == [320, 640])
    }

    @Test func relativeBaseURLIsAnError() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: /blog/\n"])
        #expect(site.errors() == [
            "content/site.yaml:2:10: baseURL \"/blog/\" is a relative address: write the full URL, starting with https://",
        ])
    }

    @Test func mailtoBaseURLIsAnError() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: mailto:a@b.example\n"])
        #expect(site.errors() == ["content/site.yaml:2:10: baseURL \"mailto:a@b.example\" must be an http or https address, like https://example.com/"])
    }

    /// Any well-formed tag is a language, in its canonical case; a malformed one is an error
    /// at the value, with the fix.
    @Test(arguments: [("fr", "fr"), ("zh-hans-tw", "zh-Hans-TW"), ("PT-br", "pt-BR"), ("sr-latn-rs", "sr-Latn-RS"), ("es-419", "es-419")])
    func anyWellFormedTagIsALanguage(written: String, canonical: String) throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nlanguage: \(written)\n"])
        #expect(site.errors() == [])
        #expect(site.load().content?.config.language.text == canonical)
    }

    @Test func aReservedLongLanguageIsAWarning() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nlanguage: english\n"])
        #expect(site.warnings() == ["content/site.yaml:3:11: language \"english\" starts with a language of 5 to 8 letters, which RFC 5646 keeps for the future: no label file or CLDR rule knows it, so its pages are in English (write the 2- or 3-letter code: en, ja, fr)"])
        #expect(site.load().content?.config.language.text == "english")
    }

    @Test(arguments: [
        ("en_US", "content/site.yaml:3:11: language \"en_US\" is not a BCP 47 language tag: subtags are joined by hyphens, so write en-US"),
        ("e", "content/site.yaml:3:11: language \"e\" is not a BCP 47 language tag: it must start with a language of 2 to 8 letters: write a tag like en, ja, zh-Hans or pt-BR (RFC 5646)"),
        ("en--US", "content/site.yaml:3:11: language \"en--US\" is not a BCP 47 language tag: it has an empty subtag: remove the extra hyphen"),
        ("de-DE-a", "content/site.yaml:3:11: language \"de-DE-a\" is not a BCP 47 language tag: the extension \"a\" needs subtags of 2 to 8 letters or digits after it"),
        ("fr-FR-FR", "content/site.yaml:3:11: language \"fr-FR-FR\" is not a BCP 47 language tag: the subtag \"FR\" cannot stand there: write a tag like en, ja, zh-Hans or pt-BR (RFC 5646)"),
        ("日本語", "content/site.yaml:3:11: language \"日本語\" is not a BCP 47 language tag: the subtag \"日本語\" must be 1 to 8 ASCII letters or digits"),
    ])
    func malformedLanguageIsALocatedError(written: String, message: String) throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nlanguage: \(written)\n"])
        #expect(site.errors() == [message])
        #expect(site.load().content == nil)
    }

    @Test func outOfRangeNumberIsAnError() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\npageSize: 0\nimages:\n  widths: [320, big]\n"])
        #expect(site.errors() == [
            "content/site.yaml:3:11: \"pageSize\" must be between 1 and 1000, found 0",
            "content/site.yaml:5:17: expected a whole number for an image width, found a string (\"big\")",
        ])
    }

    @Test func unknownKeyListsTheKnownOnesWhenNothingIsClose() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nsidebar: dark\n"])
        #expect(site.errors() == [
            "content/site.yaml:3:1: unknown key \"sidebar\" in site.yaml: site.yaml takes title, baseURL, language, description, homeUsers, pageSize, contact, images, disableKinds, icon, qr, params, theme",
        ])
    }

    /// The site icon's path is relative to content/ and held to the rules of a profile's icon.
    @Test(arguments: [
        ("../icon.png", "content/site.yaml:3:7: icon \"../icon.png\" must stay inside content/: use a path like site-icon.png (relative to content/)"),
        ("/etc/icon.png", "content/site.yaml:3:7: icon \"/etc/icon.png\" must stay inside content/: use a path like site-icon.png (relative to content/)"),
        ("missing.png", "content/site.yaml:3:7: icon file not found: put the image at content/missing.png or fix the path"),
        ("pages", "content/site.yaml:3:7: icon \"pages\" is a folder, not a file: write the path of the image file in it (without a final /)"),
    ])
    func aSiteIconOutsideContentOrMissingIsAnError(path: String, error: String) throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nicon: \(path)\n", "content/pages/about.md": "---\ntitle: About\n---\nHi\n"])
        #expect(site.errors() == [error])
    }

    @Test func aSiteIconInsideContentIsKept() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\nicon: site-icon.png\n"], bytes: ["content/site-icon.png": [0x89, 0x50]])
        #expect(site.errors() == [])
        #expect(site.load().content?.config.icon == "site-icon.png")
    }

    @Test func disableKindsTakesKnownPageKindsOnly() throws {
        let good = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\ndisableKinds: [timeline, feed, cards]\n"])
        #expect(good.errors() == [])
        let bad = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\ndisableKinds: [timelines, sitemap]\n"])
        #expect(bad.errors() == [
            "content/site.yaml:3:16: unknown page kind \"timelines\" (did you mean \"timeline\"?): disableKinds takes timeline, followers, following, feed, cards",
            "content/site.yaml:3:27: unknown page kind \"sitemap\": disableKinds takes timeline, followers, following, feed, cards",
        ])
    }

    /// A missing baseURL is a warning of the build that has no other address (`--base-url`,
    /// the preview's own), not of the file.
    @Test func missingBaseURLIsAWarningWithoutAnotherAddress() throws {
        let site = try SiteFixture(["content/site.yaml": "title: T\n"])
        #expect(site.errors() == [])
        #expect(site.warnings() == [])
        let config = try #require(site.load().content?.config)
        #expect(config.missingBaseURLWarning(given: nil)?.description ==
            "content/site.yaml:1:1: no baseURL: feeds, the sitemap and Open Graph use http://localhost:8080/ unless `tomo build --base-url` gives the site's address (add `baseURL: https://example.com/`)")
        #expect(config.missingBaseURLWarning(given: "https://staging.example/") == nil)
        let given = try SiteFixture(["content/site.yaml": "title: T\nbaseURL: https://x.example/\n"])
        #expect(try #require(given.load().content?.config).missingBaseURLWarning(given: nil) == nil)
    }

    @Test func validatedThrowsEveryError() throws {
        let site = try SiteFixture([
            "content/site.yaml": "title: T\nbaseURL: https://x.example/\nlanguage: de_DE\n",
            "content/users/bob.yaml": "name: Bob\nitemColor: teal\n",
        ])
        #expect {
            _ = try site.load().validated()
        } throws: { error in
            (error as? DiagnosticList)?.diagnostics.count == 2
        }
    }
}
