import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// A profile file with an icon, so only the problem under test is reported.
private func profileSite(_ yaml: String, file: String = "content/users/alice.yaml") throws -> SiteFixture {
    try SiteFixture([file: yaml, "content/users/alice/icon.png": "png"])
}

@Suite struct ProfileLoadingTests {
    @Test func completeProfileLoadsEveryField() throws {
        let site = try SiteFixture([
            "content/users/alice.yaml": """
            name: Alice Example
            bio: |
              Photographer in **Tokyo**.
              <script>alert(1)</script>
            icon: alice/icon.jpg
            header: alice/header.jpg
            links:
              website: https://alice.example
              x: https://x.com/alice
              mastodon: https://mastodon.social/@alice
              email: alice@example.com
            items:
              - text: Hello, I shoot film.
              - text: Portfolio
                url: https://alice.example/portfolio
                color: orange
              - text: Old news
                hidden: true
              - text: Summer sale
                from: 2026-06-01
                until: 2026-06-30
            itemColor: "#336699"
            email: alice.private@example.com
            showEmail: false

            """,
            "content/users/alice/icon.jpg": "jpg",
            "content/users/alice/header.jpg": "jpg",
        ])
        let result = site.load()
        #expect(result.diagnostics.isEmpty)
        let alice = try #require(result.content?.profiles.first)
        #expect(alice.handle == "alice")
        #expect(alice.name == "Alice Example")
        #expect(alice.bio?.summary == "Photographer in Tokyo.")
        #expect(alice.bio?.html.contains("<script>") == false)
        #expect(alice.icon == "alice/icon.jpg")
        #expect(alice.header == "alice/header.jpg")
        // The design's service order, not the file's.
        #expect(alice.links.map(\.service?.key) == ["twitter", "mastodon", "website", "email"])
        #expect(alice.links.last?.url == "mailto:alice@example.com")
        #expect(alice.items.map(\.text) == ["Hello, I shoot film.", "Portfolio", "Old news", "Summer sale"])
        #expect(alice.items[0].color.hex == "#336699")
        #expect(alice.items[1].color.name == "orange")
        #expect(alice.items[1].url == "https://alice.example/portfolio")
        #expect(alice.items[2].isShown(at: Date()) == false)
        let june30 = try #require(ISO8601DateFormatter().date(from: "2026-06-30T23:59:00Z"))
        let july1 = try #require(ISO8601DateFormatter().date(from: "2026-07-01T00:00:00Z"))
        #expect(alice.items[3].isShown(at: june30))
        #expect(!alice.items[3].isShown(at: july1))
        #expect(alice.publicEmail == nil)
    }

    /// What is published of a profile with a private e-mail address and a hidden item is the
    /// same profile without those two, every other field kept: its language and look too.
    @Test func thePublishedProfileLosesOnlyWhatMustNotBePrinted() throws {
        let site = try SiteFixture([
            "content/users/alice.yaml": """
            name: Alice Example
            language: ja
            theme:
              accent: "#336699"
              buttons: pill
            icon: alice/icon.jpg
            links:
              website: https://alice.example
            items:
              - text: Shown
              - text: Old news
                hidden: true
            email: alice.private@example.com

            """,
            "content/users/alice/icon.jpg": "jpg",
        ])
        let alice = try #require(site.load().content?.profiles.first)
        let published = alice.published
        #expect(published.email == nil && published.items.map(\.text) == ["Shown"])
        let expected = Profile(
            handle: alice.handle, file: alice.file, name: alice.name, bio: alice.bio, icon: alice.icon, header: alice.header,
            links: alice.links, items: [alice.items[0]], itemColor: alice.itemColor, email: nil, showEmail: false,
            iconAt: alice.iconAt, headerAt: alice.headerAt, language: alice.language, look: alice.look
        )
        #expect(published == expected)
        #expect(published.language?.text == "ja" && published.look == alice.look && alice.look != Look())
        // Nothing to take out: the same profile.
        #expect(expected.published == expected)
    }

    @Test func jsonProfileLoadsWithLocatedErrors() throws {
        let site = try profileSite("{\n  \"name\": \"Alice\",\n  \"icon\": \"alice/icon.png\",\n  \"itemColor\": \"pruple\"\n}\n", file: "content/users/alice.json")
        #expect(site.errors() == ["content/users/alice.json:4:16: unknown colour \"pruple\" (did you mean \"purple\"?)"])
    }

    @Test func jsonWithEscapedEmojiLoadsWithFileLevelLocations() throws {
        // Python's json.dumps escapes emoji as surrogate pairs, which libyaml refuses: the profile
        // still loads, and its errors point at the top of the file.
        let site = try profileSite("{\"name\": \"Alice \\ud83d\\ude00\", \"icon\": \"alice/icon.png\", \"itemColor\": \"pruple\"}", file: "content/users/alice.json")
        #expect(site.errors() == ["content/users/alice.json:1:1: unknown colour \"pruple\" (did you mean \"purple\"?)"])
        let fixed = try profileSite("{\"name\": \"Alice \\ud83d\\ude00\", \"icon\": \"alice/icon.png\"}", file: "content/users/alice.json")
        #expect(fixed.load().content?.profiles.first?.name == "Alice 😀")
    }

    /// A byte order mark before the JSON, as some Windows editors save it, is read past as a
    /// YAML profile's is, and errors still point at their line and column.
    @Test func jsonAfterAByteOrderMarkLoads() throws {
        let bom = "\u{FEFF}"
        let site = try profileSite(bom + "{\n  \"name\": \"Alice\",\n  \"icon\": \"alice/icon.png\"\n}\n", file: "content/users/alice.json")
        #expect(site.load().content?.profiles.first?.name == "Alice")
        let wrong = try profileSite(bom + "{\n  \"name\": \"Alice\",\n  \"icon\": \"alice/icon.png\",\n  \"itemColor\": \"pruple\"\n}\n", file: "content/users/alice.json")
        #expect(wrong.errors() == ["content/users/alice.json:4:16: unknown colour \"pruple\" (did you mean \"purple\"?)"])
    }

    @Test func plainTextItemShowsTheItemForm() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - Hello there\n")
        #expect(site.errors() == ["content/users/alice.yaml:4:5: an item is a `key: value` block: write `- text: Hello there` (add `url:` on the next line for a link)"])
    }

    @Test func jsonSyntaxErrorIsLocated() throws {
        let site = try profileSite("{\n  \"name\": \"Alice\"\n  \"icon\": \"x\"\n}\n", file: "content/users/alice.json")
        #expect(site.errors() == ["content/users/alice.json:3:3: expected ',' or '}' in the object: put a comma between two members, or close the object with }"])
    }

    @Test func unknownColourSuggestsTheClosest() throws {
        let site = try profileSite("name: Bob\nicon: alice/icon.png\nitems:\n  - text: Hi\n    color: pruple\n")
        #expect(site.errors() == ["content/users/alice.yaml:5:12: unknown colour \"pruple\" (did you mean \"purple\"?)"])
    }

    @Test func unquotedHexColourIsExplained() throws {
        let site = try profileSite("name: Bob\nicon: alice/icon.png\nitemColor: #ff8000\n")
        #expect(site.errors() == [
            "content/users/alice.yaml:3:11: \"itemColor\" has no value: write one, like `itemColor: \"#ff8000\"`, or remove the line (after a space, # starts a YAML comment: put a value with # in quotes)",
        ])
    }

    @Test func unknownKeySuggestsTheClosest() throws {
        let site = try profileSite("nmae: Alice\nname: Alice\nicon: alice/icon.png\n")
        #expect(site.errors() == ["content/users/alice.yaml:1:1: unknown key \"nmae\" in a profile (did you mean \"name\"?)"])
    }

    @Test func wrongTypeNamesWhatWasFound() throws {
        let site = try profileSite("name:\n  - Alice\n  - Bob\nicon: alice/icon.png\n")
        #expect(site.errors() == ["content/users/alice.yaml:2:3: expected a string for \"name\", found a list"])
    }

    @Test func yaml11BooleanIsRefusedWithTheFix() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nshowEmail: yes\n")
        #expect(site.errors() == ["content/users/alice.yaml:3:12: expected true or false for \"showEmail\", found a string (\"yes\")"])
    }

    @Test func missingNameIsAnError() throws {
        let site = try profileSite("bio: Hi\nicon: alice/icon.png\n")
        #expect(site.errors() == ["content/users/alice.yaml:1:1: \"name\" is missing or empty: add a line like `name: Alice Example`"])
    }

    @Test func itemWithoutTextIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - url: https://example.com\n")
        #expect(site.errors() == ["content/users/alice.yaml:4:5: an item needs text: add `text: Hello` (with `url:` it becomes a link)"])
    }

    @Test(arguments: [
        ("javascript:alert(1)", "URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL"),
        ("data:text/html,hi", "URL scheme \"data:\" is not allowed: use an http, https or mailto URL"),
        ("alice.example/about", "\"alice.example/about\" is not an absolute URL: start it with https:// or mailto: (e.g. \"https://alice.example/about\")"),
        ("https://", "\"https://\" is not a valid URL: it needs a host, like https://example.com/"),
    ])
    func itemURLMustBeHttpHttpsOrMailto(url: String, message: String) throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - text: Click\n    url: \"\(url)\"\n")
        #expect(site.errors() == ["content/users/alice.yaml:5:10: \(message)"])
    }

    @Test func linkURLMustBeHttpHttpsOrMailto() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nlinks:\n  github: javascript:alert(1)\n  githb: https://github.com/alice\n")
        #expect(site.errors() == [
            "content/users/alice.yaml:4:11: URL scheme \"javascript:\" is not allowed: use an http, https or mailto URL",
            "content/users/alice.yaml:5:3: unknown key \"githb\" in links (did you mean \"github\"?)",
        ])
    }

    @Test func badHandleInFileNameIsAnError() throws {
        let site = try SiteFixture(["content/users/Alice Smith.yaml": "name: Alice\n"])
        #expect(site.errors() == [
            "content/users/Alice Smith.yaml:1:1: bad file name: handle \"Alice Smith\" may use only a-z, 0-9 and _ (try \"alice_smith\"); the file name is the user's handle",
        ])
    }

    @Test func reservedHandleIsAnError() throws {
        let site = try SiteFixture(["content/users/posts.yaml": "name: Posts\n"])
        #expect(site.errors() == [
            "content/users/posts.yaml:1:1: bad file name: \"posts\" is reserved for the site's own pages: choose another handle; the file name is the user's handle",
        ])
    }

    /// `icon: |` (or `>`) keeps a line feed after the path, and a quoted path may hold a space:
    /// when the file is there under the path without them, the error says so and how to write it.
    @Test(arguments: ["icon: |\n  alice/icon.png\n", "icon: >\n  alice/icon.png\n", "icon: \" alice/icon.png\"\n"])
    func aPathWithASpaceOrLineFeedAroundItSaysSo(yaml: String) throws {
        let site = try profileSite("name: Alice\n" + yaml)
        let errors = site.errors()
        #expect(errors.count == 1 && errors[0].hasPrefix("content/users/alice.yaml:2:"), "\(errors)")
        #expect(errors[0].hasSuffix("starts or ends with a space or a line feed, which the file's name does not (a block scalar, `|` or `>`, keeps its last line feed): write `icon: alice/icon.png` on one line"), "\(errors)")
        // With no such file, it is the usual message.
        let missing = try profileSite("name: Alice\nicon: |\n  alice/other.png\n")
        #expect(missing.errors().first?.contains("icon file not found: put the image at content/users/alice/other.png") == true, "\(missing.errors())")
    }

    /// A hidden name on an image's path (`.icon.png`, `.brand/logo.png`) is refused: the
    /// build's stamps pass hidden names by, so an edit to the image would never be seen.
    @Test(arguments: ["alice/.icon.png", ".alice/icon.png", "alice/.hidden/icon.png"])
    func anImageOnAHiddenPathIsAnError(path: String) throws {
        let site = try SiteFixture([
            "content/users/alice.yaml": "name: Alice\nicon: \(path)\n",
            "content/users/\(path)": "png",
        ])
        #expect(site.errors() == [
            "content/users/alice.yaml:2:7: icon \"\(path)\" names a hidden file or folder (its name starts with .), which tomo neither reads nor watches for changes: rename it without the leading .",
        ])
    }

    @Test func missingImageFileIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nheader: alice/header.jpg\n")
        #expect(site.errors() == ["content/users/alice.yaml:3:9: header file not found: put the image at content/users/alice/header.jpg or fix the path"])
    }

    @Test func imageOutsideTheUsersFolderIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: ../site.yaml\n")
        #expect(site.errors() == ["content/users/alice.yaml:2:7: icon \"../site.yaml\" must stay inside content/users/: use a path like alice/icon.jpg"])
    }

    @Test func symbolicLinkOutOfTheUsersFolderIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: alice/escape.png\n")
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("content/users/alice/escape.png").path,
            withDestinationPath: site.root.appendingPathComponent("content/site.yaml").path
        )
        let target = site.root.appendingPathComponent("content/site.yaml").resolvingSymlinksInPath().path
        #expect(site.errors() == ["content/users/alice.yaml:2:7: icon \"alice/escape.png\" is a symbolic link (or goes through one) to \(target), outside the folder it must stay in: put the file itself there instead of the link"])
    }

    /// The other problems of the file are told with it, not after it is fixed.
    @Test func duplicateKeyIsAnErrorAndTheOtherProblemsAreToldToo() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nname: Bob\n")
        #expect(site.errors() == ["content/users/alice.yaml:3:1: duplicate key \"name\" (first on line 1): keep only one"])
        let more = try profileSite("name: Alice\nicon: alice/icon.png\nitemColor: pruple\nname: Bob\n")
        #expect(more.errors() == [
            "content/users/alice.yaml:3:12: unknown colour \"pruple\" (did you mean \"purple\"?)",
            "content/users/alice.yaml:4:1: duplicate key \"name\" (first on line 1): keep only one",
        ])
    }

    /// Mistakes of typing rather than of YAML: quotes a phone or a word processor puts in,
    /// and a key without the space after its colon.
    @Test func typographicQuotesAndAMissingSpaceAfterAColonAreExplained() throws {
        let quoted = try profileSite("name: Alice\nicon: alice/icon.png\nitemColor: ‘blue’\n")
        #expect(quoted.errors() == ["content/users/alice.yaml:3:12: colour \"‘blue’\" is between typographic quotes, which YAML reads as part of the text: write blue with \" or ' or no quotes"])
        let misspelt = try profileSite("name: Alice\nicon: alice/icon.png\nitemColor: “bleu”\n")
        #expect(misspelt.errors() == ["content/users/alice.yaml:3:12: unknown colour \"“bleu”\" (did you mean \"blue\"? “ ” and ‘ ’ are typographic quotes, which YAML reads as text: write \" or ', or no quotes)"])
        let syntax = try profileSite("name: Alice\nicon: alice/icon.png\nbio: “Tokyo: film and light”\n")
        let error = try #require(syntax.errors().first)
        #expect(error.hasPrefix("content/users/alice.yaml:3:") && error.contains("(“ ” and ‘ ’ are typographic quotes, which YAML reads as text: quote with \" or ')"), "\(error)")
        let spaceless = try profileSite("name:Alice\n")
        #expect(spaceless.errors() == ["content/users/alice.yaml:1:1: expected a profile as `key: value` lines, found a string: a key needs a space after its colon (`name: …`, not `name:…`)"])
    }

    @Test func tabIndentationIsAnError() throws {
        let site = try profileSite("name: Alice\nlinks:\n\tgithub: https://github.com/alice\n")
        #expect(site.errors() == ["content/users/alice.yaml:3:1: a tab is used for indentation: use spaces, not tabs"])
    }

    @Test func invalidUTF8IsAnError() throws {
        let site = try SiteFixture(bytes: ["content/users/alice.yaml": Array("name: Ren\n".utf8) + [0x82, 0xA0] + Array("\n".utf8)])
        #expect(site.errors() == ["content/users/alice.yaml:2:1: invalid UTF-8 (byte 0x82): save the file as UTF-8"])
    }

    @Test func emptyFileIsAnError() throws {
        let site = try profileSite("\n# nothing yet\n")
        #expect(site.errors() == ["content/users/alice.yaml:1:1: the file is empty: write at least one `key: value` line"])
    }

    @Test func yamlSyntaxErrorIsAnError() throws {
        let site = try profileSite("name: Alice\nbio: Tokyo: Japan\n")
        #expect(site.errors() == [
            "content/users/alice.yaml:2:11: YAML syntax error: mapping values are not allowed in this context: put a value that contains \": \" in quotes",
        ])
    }

    @Test func sameHandleInYAMLAndJSONIsAnError() throws {
        let site = try SiteFixture([
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/alice.json": "{\"name\": \"Alice\"}",
        ])
        #expect(site.errors() == [
            "content/users/alice.yaml:1:1: duplicate profile: content/users/alice.json and content/users/alice.yaml both define @alice: keep one of them",
        ])
    }

    @Test func everyErrorOfEveryFileIsReportedInOrder() throws {
        let site = try SiteFixture([
            "content/site.yaml": "title: Test\nbaseURL: https://example.com\npageSize: many\n",
            "content/users/bob.yaml": "name: Bob\nitemColor: pruple\nitems:\n  - color: red\n",
            "content/users/alice.yaml": "name: [\n",
        ])
        #expect(site.errors().map { $0.prefix { $0 != " " } } == [
            "content/site.yaml:3:11:",
            "content/users/alice.yaml:2:1:",
            "content/users/bob.yaml:2:12:",
            "content/users/bob.yaml:4:5:",
        ])
        #expect(site.load().profileFileCount == 2)
    }

    @Test func warningsForMissingIconAndEmptyLinkText() throws {
        let site = try SiteFixture(["content/users/alice.yaml": "name: Alice\nitems:\n  - text: \"\"\n    url: https://alice.example\n"])
        #expect(site.errors() == [])
        #expect(site.warnings() == [
            "content/users/alice.yaml:1:1: no icon: the page shows a placeholder (add `icon: alice/icon.jpg`)",
            "content/users/alice.yaml:3:11: this item has a url but empty text: the page shows the address instead",
        ])
        #expect(site.load().content?.profiles.first?.items.first?.text == "https://alice.example")
    }

    /// A `.json` profile that is not an object is told so in JSON's words, not YAML's.
    @Test func aJSONProfileThatIsNotAnObjectIsToldInJSONsWords() throws {
        for (json, found) in [("[\"name\", \"Bob\"]", "a list"), ("\"Bob\"", "a single value"), ("3", "a single value")] {
            let site = try profileSite(json + "\n", file: "content/users/alice.json")
            #expect(site.errors() == ["content/users/alice.json:1:1: expected a profile as a JSON object ({\"name\": \"…\", …}), found \(found)"], "\(json)")
        }
    }

    @Test func untilBeforeFromIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - text: Sale\n    from: 2026-06-01\n    until: 2026-05-01\n")
        #expect(site.errors() == ["content/users/alice.yaml:6:12: \"until\" is not after \"from\": this item would never be shown (give \"until\" a later date than \"from\", or remove one of them)"])
    }

    @Test func impossibleDateIsAnError() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - text: Sale\n    from: 2026-02-30\n")
        #expect(site.errors() == ["content/users/alice.yaml:5:11: \"2026-02-30\" is not a date: write from as 2026-05-01 or 2026-05-01T18:30:00+09:00"])
    }

    @Test func emailIsPublicOnlyWithShowEmail() throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nemail: alice@example.com\nshowEmail: true\n")
        #expect(site.load().content?.profiles.first?.publicEmail == "alice@example.com")
    }

    /// The address `email` keeps private may not be published by another field of the page:
    /// wherever it is written (bare, as a mailto link, in another case, inside a URL), in a
    /// link, an item that is shown or the bio, it is an error at that value.
    @Test func aPrivateAddressPublishedElsewhereOnThePageIsAnError() throws {
        let places = [
            ("links:\n  email: alice@example.com\n", "4:10"),
            ("links:\n  email: mailto:Alice@Example.com\n", "4:10"),
            ("links:\n  website: https://example.com/?to=alice@example.com\n", "4:12"),
            ("items:\n  - text: Write to alice@example.com\n", "4:11"),
            ("items:\n  - text: Write to me\n    url: mailto:alice@example.com\n", "5:10"),
            ("bio: Reach me at ALICE@example.com\n", "3:6"),
            // As the page shows the bio, once its Markdown is rendered, and addresses decoded.
            ("bio: \"alice&#64;example.com\"\n", "3:6"),
            ("bio: alice\\@example.com\n", "3:6"),
            ("bio: \"alice@<!-- -->example.com\"\n", "3:6"),
            ("bio: alice@*example*.com\n", "3:6"),
            ("bio: \"[m](mailto:alice%40example.com)\"\n", "3:6"),
            // A link's or an image's title, shown on hover.
            ("bio: \"[m](https://example.com/ 'alice@example.com')\"\n", "3:6"),
            ("bio: \"![m](https://example.com/a.png 'Alice@Example.com')\"\n", "3:6"),
            ("links:\n  website: https://example.com/?to=alice%40example.com\n", "4:12"),
        ]
        for (field, place) in places {
            for shown in ["", "showEmail: false\n", "showEmail: true\n"] {
                let site = try profileSite("name: Alice\nicon: alice/icon.png\n\(field)email: alice@example.com\n\(shown)")
                let expected = shown == "showEmail: true\n" ? [] : [
                    "content/users/alice.yaml:\(place): this publishes alice@example.com, which `email:` keeps private (there is no `showEmail: true`): remove it here, or add `showEmail: true` to publish it",
                ]
                #expect(site.errors() == expected, "\(field) \(shown)")
            }
        }
        let named = try profileSite("name: alice@example.com\nicon: alice/icon.png\nemail: alice@example.com\n")
        #expect(named.errors() == [
            "content/users/alice.yaml:1:7: this publishes alice@example.com, which `email:` keeps private (there is no `showEmail: true`): remove it here, or add `showEmail: true` to publish it",
        ])
        // Not published: a hidden item; another address.
        let hidden = try profileSite("name: Alice\nicon: alice/icon.png\nitems:\n  - text: alice@example.com\n    hidden: true\nlinks:\n  email: bob@example.com\nemail: alice@example.com\n")
        #expect(hidden.errors() == [])
    }

    /// An internationalized domain has two spellings that mail programs and browsers take for
    /// one: the address in either is the private one.
    @Test func aPrivateAddressIsFoundInEitherSpellingOfItsDomain() throws {
        for (email, bio) in [("secret@例え.jp", "secret@xn--r8jz45g.jp"), ("secret@xn--r8jz45g.jp", "secret@例え.jp"), ("secret@例え.jp", "SECRET@例え.JP"),
                             ("secret@例え.jp", "[me](mailto:secret@例え。jp)"), ("secret@xn--r8jz45g.jp", "secret@例え．jp")] {
            let site = try profileSite("name: Alice\nicon: alice/icon.png\nbio: Write to \(bio)\nemail: \(email)\n")
            #expect(site.errors() == [
                "content/users/alice.yaml:3:6: this publishes \(email), which `email:` keeps private (there is no `showEmail: true`): remove it here, or add `showEmail: true` to publish it",
            ], "\(email) \(bio)")
        }
        let other = try profileSite("name: Alice\nicon: alice/icon.png\nbio: Write to secret@xn--r8jz45h.jp\nemail: secret@例え.jp\n")
        #expect(other.errors() == [])
    }

    /// A mark or an invisible character after the address, or inside it, and full-width
    /// letters leave it what a reader reads: compared as characters, a joiner after `m` made
    /// `com` another word, and the address was published.
    @Test(arguments: ["alice@example.com\u{200C}", "alice@example.com\u{034F}", "alice@example.com\u{FE0F}", "alice@example.com\u{0301}",
                      "al\u{00AD}ice@example.com", "alice@exa\u{200B}mple.com", "alice@ｅｘａｍｐｌｅ.com", "ＡＬＩＣＥ@example.com"])
    func aPrivateAddressIsFoundThroughMarksInvisibleCharactersAndFullWidthLetters(shown: String) throws {
        let site = try profileSite("name: Alice\nicon: alice/icon.png\nbio: \"write to \(shown) please\"\nemail: alice@example.com\n")
        #expect(site.errors() == [
            "content/users/alice.yaml:3:6: this publishes alice@example.com, which `email:` keeps private (there is no `showEmail: true`): remove it here, or add `showEmail: true` to publish it",
        ], "\(shown.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// The owner's public posts may not show it either, in the caption (as written or as the
    /// page shows it) or the alt text; the error is at the line that shows it.
    @Test func aPrivateAddressInTheOwnersPublicPostIsAnError() throws {
        let profile = "name: Alice\nicon: alice/icon.png\nemail: alice@example.com\n"
        func site(_ post: String, profile: String = profile) throws -> SiteFixture {
            try SiteFixture([
                "content/users/alice.yaml": profile, "content/users/alice/icon.png": "png",
                "content/users/bob.yaml": "name: Bob\n",
                "content/posts/alice/p.md": post, "content/posts/alice/p.jpg": "jpg",
            ])
        }
        let message = "this publishes alice@example.com, which @alice's `email:` keeps private (there is no `showEmail: true` in their profile): remove it from the caption or alt text, or add `showEmail: true` to the profile to publish it"
        let head = "---\nphoto: p.jpg\ndate: 2026-05-01\n"
        for (post, line) in [
            (head + "alt: A photo\n---\nWrite to Alice@Example.com\n", 6),
            (head + "alt: A card for alice@example.com\n---\nHello\n", 4),
            (head + "alt: A photo\n---\nWrite to alice@*example*.com\n", 1),
            (head + "alt: A photo\n---\n[mail](mailto:alice%40example.com)\n", 6),
        ] {
            #expect(try site(post).errors() == ["content/posts/alice/p.md:\(line):1: " + message], "\(post)")
        }
        // Not published, or published on purpose.
        #expect(try site(head + "visibility: private\n---\nalice@example.com\n").errors() == [])
        #expect(try site(head + "---\nalice@example.com\n", profile: profile + "showEmail: true\n").errors() == [])
    }
}

@Suite struct ProfileFolderTests {
    @Test func ymlFileIsIgnoredWithAWarning() throws {
        let site = try SiteFixture(["content/users/alice.yml": "name: Alice\n", "content/users/logo.png": "png"])
        #expect(site.warnings() == ["content/users/alice.yml:1:1: ignored: rename it to alice.yaml"])
        #expect(site.load().content?.profiles.isEmpty == true)
    }
}
