import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// A profile with an icon (so only the problem under test is reported) and two more images a
/// link or an item may show.
private func linkSite(_ yaml: String) throws -> SiteFixture {
    try SiteFixture([
        "content/users/alice.yaml": "name: Alice\nicon: alice/icon.png\n" + yaml,
        "content/users/alice/icon.png": "png",
        "content/users/alice/shop.png": "png",
        "content/users/alice/notes.txt": "text",
    ])
}

@Suite struct ProfileLinkTests {
    @Test func brandKeysLoadWithTheirNamesAndMarks() throws {
        let site = try linkSite("""
        links:
          twitch: https://twitch.tv/alice
          discord: https://discord.gg/alice
          website: https://alice.example
          spotify: https://open.spotify.com/artist/1
          pixiv: https://www.pixiv.net/users/1
          misskey: https://misskey.io/@alice
          line: https://line.me/ti/p/alice
          github: https://github.com/alice

        """)
        let result = site.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let links = try #require(result.content?.profiles.first?.links)
        // The theme's own services first, in their order; then the brands as the file writes them.
        #expect(links.map(\.service?.key) == ["github", "website", "twitch", "discord", "spotify", "pixiv", "misskey", "line"])
        #expect(links.map(\.label) == ["GitHub", "Website", "Twitch", "Discord", "Spotify", "pixiv", "Misskey", "LINE"])
        #expect(links.prefix(2).allSatisfy { $0.service?.markPath == nil })
        for link in links.dropFirst(2) {
            // A Simple Icons mark: one path starting with a moveto, in a 24×24 box.
            let path = try #require(link.service?.markPath, "\(link.label)")
            #expect(path.hasPrefix("M") || path.hasPrefix("m"), "\(link.label)")
            #expect(path.count > 50, "\(link.label)")
        }
    }

    @Test func everyBrandIsAKeyAndTheThemesOwnComeFirst() {
        let keys = LinkService.keys
        #expect(keys.count > 3_000)
        #expect(Array(keys.prefix(14)) == ["twitter", "instagram", "facebook", "github", "youtube", "tiktok", "linkedin", "mastodon", "bluesky", "threads", "note", "website", "email", "x"])
        #expect(Set(keys).count == keys.count)
        // Simple Icons' own `github` and `x` are the theme's services, with their labels.
        #expect(LinkService(key: "x")?.label == "X (Twitter)")
        #expect(LinkService(key: "github")?.markPath == nil)
        #expect(keys.allSatisfy { key in LinkService(key: key) != nil })
    }

    @Test func unknownKeyIsAnErrorWithTheClosestBrand() throws {
        let site = try linkSite("links:\n  discrod: https://discord.gg/alice\n  twich: https://twitch.tv/alice\n  qqqqzzzz: https://example.com\n")
        let errors = site.errors()
        #expect(errors.count == 3)
        #expect(errors[0] == "content/users/alice.yaml:4:3: unknown key \"discrod\" in links (did you mean \"discord\"?)")
        #expect(errors[1] == "content/users/alice.yaml:5:3: unknown key \"twich\" in links (did you mean \"twitch\"?)")
        // Far from every key: where the keys are, not a list of thousands.
        #expect(errors[2].hasPrefix("content/users/alice.yaml:6:3: unknown key \"qqqqzzzz\" in links: links takes a service's Simple Icons slug"))
        #expect(errors[2].count < 500)
    }

    @Test func brandLinksFollowTheURLRules() throws {
        let site = try linkSite("links:\n  discord: javascript:alert(1)\n  twitch: twitch.tv/alice\n")
        let errors = site.errors()
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.hasPrefix("content/users/alice.yaml:") })
        #expect(errors[0].hasPrefix("content/users/alice.yaml:4:12: "))
        #expect(errors[1].hasPrefix("content/users/alice.yaml:5:11: "))
    }

    @Test func listFormKeepsItsOrderLabelsIconsAndServices() throws {
        let site = try linkSite("""
        links:
          - label: My shop & café
            url: https://shop.example/
            icon: alice/shop.png
          - service: discord
            url: https://discord.gg/alice
          - label: Our server
            service: discord
            url: https://discord.gg/team
          - label: Notes
            url: https://notes.example/

        """)
        let result = site.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let links = try #require(result.content?.profiles.first?.links)
        #expect(links.map(\.label) == ["My shop & café", "Discord", "Our server", "Notes"])
        #expect(links.map(\.service?.key) == [nil, "discord", "discord", nil])
        #expect(links.map(\.icon) == ["alice/shop.png", nil, nil, nil])
        #expect(links[0].iconAt == SourceLocation(file: "content/users/alice.yaml", line: 6, column: 11))
        let profile = try #require(result.content?.profiles.first)
        #expect(profile.images.map(\.path) == ["alice/icon.png", "alice/shop.png"])
    }

    @Test func listEntryProblemsAreLocated() throws {
        let site = try linkSite("""
        links:
          - url: https://a.example/
          - label: Outside
            url: https://b.example/
            icon: ../outside.png
          - label: Text file
            url: https://c.example/
            icon: alice/notes.txt
          - label: Gone
            url: https://d.example/
            icon: alice/gone.png
          - service: discrod
            url: https://e.example/
          - label: "Bell\\u0007"
            url: https://f.example/
          - label: No address
          - label: Bad address
            url: ftp://g.example/
          - label: Extra
            url: https://h.example/
            colour: red
          - Just text

        """)
        let errors = site.errors()
        #expect(errors.contains("content/users/alice.yaml:4:5: a link needs a label: add `label: My shop` (or `service: discord` for a service's mark and name)"), "\(errors)")
        #expect(errors.contains("content/users/alice.yaml:7:11: icon \"../outside.png\" must stay inside content/users/: use a path like alice/icon.jpg"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:10:11: icon \"alice/notes.txt\" is not a photo file: use a .jpg") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:13:11: icon file not found") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:14:14: unknown service \"discrod\" (did you mean \"discord\"?)") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:16:12: ") && $0.contains("control character") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:18:5: \"url\" is missing or empty") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:20:10: ") }, "\(errors)")
        #expect(errors.contains("content/users/alice.yaml:23:5: unknown key \"colour\" in a link: a link takes label, url, icon, service"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix("content/users/alice.yaml:24:5: expected a link as `key: value` lines") }, "\(errors)")
        #expect(errors.count == 10, "\(errors)")
    }

    @Test func linkIconsMayNotLeaveTheUsersFolderThroughALink() throws {
        let site = try linkSite("links:\n  - label: Shop\n    url: https://shop.example/\n    icon: alice/escape.png\nitems:\n  - text: Hi\n    icon: alice/escape.png\n")
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("content/users/alice/escape.png").path,
            withDestinationPath: site.root.appendingPathComponent("content/site.yaml").path
        )
        let target = site.root.appendingPathComponent("content/site.yaml").resolvingSymlinksInPath().path
        let message = "icon \"alice/escape.png\" is a symbolic link (or goes through one) to \(target), outside the folder it must stay in: put the file itself there instead of the link"
        #expect(site.errors() == ["content/users/alice.yaml:6:11: " + message, "content/users/alice.yaml:9:11: " + message])
    }

    @Test func itemsMayCarryAnIcon() throws {
        let site = try linkSite("items:\n  - text: Shop\n    url: https://shop.example/\n    icon: alice/shop.png\n  - text: Plain\n")
        let result = site.load()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let profile = try #require(result.content?.profiles.first)
        #expect(profile.items.map(\.icon) == ["alice/shop.png", nil])
        #expect(profile.images.map(\.path) == ["alice/icon.png", "alice/shop.png"])
    }

    @Test func aPrivateAddressInAListedLinkIsRefused() throws {
        let site = try linkSite("email: alice@example.com\nlinks:\n  - label: Write alice@example.com\n    url: mailto:alice@example.com\n")
        let errors = site.errors()
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.contains("which `email:` keeps private") })
    }
}
