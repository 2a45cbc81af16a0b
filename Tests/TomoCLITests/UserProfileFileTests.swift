import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// The commands that change a profile file (`user rename`, `user add|set --name`) change the
/// value the loader reads, however it is written, and leave the rest of the file alone.
@Suite struct UserProfileFileTests {
    static let photo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    /// bob registered, with `profile` as content/users/bob.<format>, his pictures in
    /// content/users/bob/ and a picture at each of `pictures` (relative to content/users/).
    func bobSite(_ profile: String, format: String = "yaml", pictures: [String] = []) throws -> TemporaryFolder {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\nbaseURL: https://example.com/\n"])
        try site.write("content/users/bob.\(format)", profile)
        #expect(runTomo(["user", "add", "bob"], in: site.url).status == 0)
        for path in ["bob/icon.jpg", "bob/header.jpg"] + pictures {
            let file = site.url.appendingPathComponent("content/users/" + path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.photo, to: file)
        }
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        return site
    }

    func text(_ path: String, in site: TemporaryFolder) -> String? {
        try? String(contentsOf: site.url.appendingPathComponent(path), encoding: .utf8)
    }

    static let renamedForms: [(String, String, String)] = [
        ("yaml", "name: Bob\nicon: bob/icon.jpg\nheader: bob/header.jpg\n", "name: Bob\nicon: robert/icon.jpg\nheader: robert/header.jpg\n"),
        ("yaml", "name: Bob\nicon: \"bob/icon.jpg\"   # quoted\nheader: 'bob/header.jpg'\n", "name: Bob\nicon: \"robert/icon.jpg\"   # quoted\nheader: 'robert/header.jpg'\n"),
        ("yaml", "name: Bob\nicon: ./bob/icon.jpg\nheader: \"./bob/./header.jpg\"\n", "name: Bob\nicon: ./robert/icon.jpg\nheader: \"./robert/./header.jpg\"\n"),
        ("yaml", "name: Bob\nicon: !!str bob/icon.jpg\nheader: >-\n  bob/header.jpg\nbio: Hi.\n", "name: Bob\nicon: !!str robert/icon.jpg\nheader: >-\n  robert/header.jpg\nbio: Hi.\n"),
        // A block scalar stays one: its indicator line, comment and indentation as they were.
        ("yaml", "name: Bob\nicon: |-   # the round one\n    bob/icon.jpg\nheader: !!str >2-\n  ./bob/header.jpg\n", "name: Bob\nicon: |-   # the round one\n    robert/icon.jpg\nheader: !!str >2-\n  ./robert/header.jpg\n"),
        ("json", "{\n  \"name\": \"Bob\",\n  \"icon\": \"bob/icon.jpg\",\n  \"header\": \"./bob/header.jpg\"\n}\n",
         "{\n  \"name\": \"Bob\",\n  \"icon\": \"robert/icon.jpg\",\n  \"header\": \"./robert/header.jpg\"\n}\n"),
        ("json", "{\"name\":\"Bob\",\"header\":\"bob/header.jpg\",\"icon\":\"bob/icon.jpg\"}", "{\"name\":\"Bob\",\"header\":\"robert/header.jpg\",\"icon\":\"robert/icon.jpg\"}"),
    ]

    /// Every way of writing the paths is rewritten, the rest of the file kept; the site builds
    /// and the pages show the pictures under the new handle.
    @Test(arguments: renamedForms)
    func renameRewritesTheImagePathsHoweverTheyAreWritten(format: String, before: String, after: String) throws {
        let site = try bobSite(before, format: format)
        let renamed = runTomo(["user", "rename", "bob", "robert"], in: site.url)
        #expect(renamed.status == 0, "\(renamed.error)")
        #expect(text("content/users/robert.\(format)", in: site) == after)
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        let page = try #require(text("public/robert/index.html", in: site))
        #expect(page.contains(#"srcset="/media/robert/icon-"#) && page.contains(#"srcset="/media/robert/header-"#))
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    /// A path through the renamed folder is renamed; one that does not go through it is not.
    @Test func onlyPathsThroughTheRenamedFolderChange() throws {
        let site = try bobSite("name: Bob\nicon: bob/icon.jpg\n")
        try FileManager.default.copyItem(at: Self.photo, to: site.url.appendingPathComponent("content/users/shared.jpg"))
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("content/users/x"), withIntermediateDirectories: true)
        for (profile, renamed) in [
            ("icon: bob/../shared.jpg\nheader: shared.jpg\n", "icon: robert/../shared.jpg\nheader: shared.jpg\n"),
            ("icon: x/../bob/icon.jpg\nheader: ./shared.jpg\n", "icon: robert/icon.jpg\nheader: ./shared.jpg\n"),
        ] {
            try site.write("content/users/bob.yaml", "name: Bob\n" + profile)
            #expect(runTomo(["user", "rename", "bob", "robert"], in: site.url).status == 0)
            #expect(text("content/users/robert.yaml", in: site) == "name: Bob\n" + renamed)
            #expect(runTomo(["build"], in: site.url).status == 0)
            #expect(runTomo(["user", "rename", "robert", "bob"], in: site.url).status == 0)
        }
    }

    /// bob's profile with a picture in every image field a profile has: icon, header, a link's
    /// icon and an item's icon, some in bob's folder and some not: `bobby/` (which only starts
    /// with bob's handle) and `shared/`.
    static let everyImageField: [(format: String, before: String, after: String)] = [
        ("yaml", """
            name: Bob
            icon: bob/icon.jpg
            header: bob/header.jpg
            links:
              - label: Shop
                url: https://bob.example/shop
                icon: bob/shop.jpg
              - label: Bobby's shop
                url: https://bobby.example/
                icon: bobby/shop.jpg
            items:
              - text: Prints
                icon: "./bob/shop.jpg"   # the same picture as the shop link
              - text: Our club
                icon: shared/club.jpg
              - text: Flyer
                icon: >-
                  bob/flyer.jpg

            """, """
            name: Bob
            icon: robert/icon.jpg
            header: robert/header.jpg
            links:
              - label: Shop
                url: https://bob.example/shop
                icon: robert/shop.jpg
              - label: Bobby's shop
                url: https://bobby.example/
                icon: bobby/shop.jpg
            items:
              - text: Prints
                icon: "./robert/shop.jpg"   # the same picture as the shop link
              - text: Our club
                icon: shared/club.jpg
              - text: Flyer
                icon: >-
                  robert/flyer.jpg

            """),
        ("json", """
            {
              "name": "Bob",
              "icon": "bob/icon.jpg",
              "links": [
                {"label": "Shop", "url": "https://bob.example/shop", "icon": "bob/shop.jpg"},
                {"label": "Bobby's shop", "url": "https://bobby.example/", "icon": "bobby/shop.jpg"}
              ],
              "items": [
                {"text": "Prints", "icon": "./bob/shop.jpg"},
                {"text": "Our club", "icon": "shared/club.jpg"},
                {"text": "Flyer", "icon": "bob/flyer.jpg"}
              ]
            }

            """, """
            {
              "name": "Bob",
              "icon": "robert/icon.jpg",
              "links": [
                {"label": "Shop", "url": "https://bob.example/shop", "icon": "robert/shop.jpg"},
                {"label": "Bobby's shop", "url": "https://bobby.example/", "icon": "bobby/shop.jpg"}
              ],
              "items": [
                {"text": "Prints", "icon": "./robert/shop.jpg"},
                {"text": "Our club", "icon": "shared/club.jpg"},
                {"text": "Flyer", "icon": "robert/flyer.jpg"}
              ]
            }

            """),
    ]

    /// Every image path into bob's folder follows it (the profile's icon and header, and the
    /// links' and items' icons); paths elsewhere stay. The renamed site checks and builds, and
    /// its page shows the link and item icons.
    @Test(arguments: everyImageField)
    func renamePointsEveryImageFieldAtTheMovedFolder(format: String, before: String, after: String) throws {
        let site = try bobSite(before, format: format, pictures: ["bob/shop.jpg", "bob/flyer.jpg", "bobby/shop.jpg", "shared/club.jpg"])
        let renamed = runTomo(["user", "rename", "bob", "robert"], in: site.url)
        #expect(renamed.status == 0, "\(renamed.error)")
        #expect(text("content/users/robert.\(format)", in: site) == after)
        let checkedAgain = runTomo(["check"], in: site.url)
        #expect(checkedAgain.status == 0, "\(checkedAgain.error)")
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        let page = try #require(text("public/robert/index.html", in: site))
        #expect(page.components(separatedBy: #"<img class="link-icon""#).count - 1 == 2)
        #expect(page.components(separatedBy: #"<img class="item-icon""#).count - 1 == 3)
    }

    // MARK: - Display names

    func show(_ handle: String, in site: TemporaryFolder) throws -> JSONValue {
        let result = runTomo(["user", "show", handle, "--json"], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        return try JSONParser.parse(result.output, file: "stdout")
    }

    /// The profile's `name` is the one display name: `user set --name` and `user add --name`
    /// change it where it is written, and `user list`/`user show` show what the page shows.
    @Test func theProfileNameIsTheOneDisplayName() throws {
        let site = try bobSite("# Bob's page\nname: Bob   # as friends say\nicon: bob/icon.jpg\n")
        #expect(try show("bob", in: site)["name"] == .string("Bob"))
        let set = runTomo(["user", "set", "bob", "--name", "Robert \"Bob\" Smith"], in: site.url)
        #expect(set.status == 0, "\(set.error)")
        #expect(text("content/users/bob.yaml", in: site) == "# Bob's page\nname: \"Robert \\\"Bob\\\" Smith\"   # as friends say\nicon: bob/icon.jpg\n")
        #expect(try show("bob", in: site)["name"] == .string("Robert \"Bob\" Smith"))
        #expect(runTomo(["build"], in: site.url).status == 0)
        #expect(text("public/bob/index.html", in: site)?.contains("<h1 class=\"name p-name\" dir=\"auto\">Robert &quot;Bob&quot; Smith</h1>") == true)

        // A hand edit of the profile is what the listings show: there is no other copy.
        try site.write("content/users/bob.yaml", "name: Bobby\nicon: bob/icon.jpg\n")
        #expect(runTomo(["user", "list"], in: site.url).output.split(separator: "\n").dropFirst().first?.split(separator: " ").prefix(2) == ["bob", "Bobby"])
        // `user add --name` on a registered user updates the profile too.
        let again = runTomo(["user", "add", "bob", "--name", "B. Smith"], in: site.url)
        #expect(again.status == 0)
        #expect(again.output.contains("unchanged: bob is already registered") && again.output.contains("set the name in content/users/bob.yaml"))
        #expect(text("content/users/bob.yaml", in: site) == "name: \"B. Smith\"\nicon: bob/icon.jpg\n")
        // A JSON profile, and one without a `name` line at all.
        try site.write("content/users/bob.yaml", "icon: bob/icon.jpg\n")
        #expect(runTomo(["user", "set", "bob", "--name", "Bob"], in: site.url).status == 0)
        #expect(text("content/users/bob.yaml", in: site) == "name: \"Bob\"\nicon: bob/icon.jpg\n")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/bob.yaml"))
        try site.write("content/users/bob.json", "{\n  \"icon\": \"bob/icon.jpg\",\n  \"name\": \"Bob\"\n}\n")
        #expect(runTomo(["user", "set", "bob", "--name", "ボブ"], in: site.url).status == 0)
        #expect(text("content/users/bob.json", in: site) == "{\n  \"icon\": \"bob/icon.jpg\",\n  \"name\": \"ボブ\"\n}\n")
        #expect(try show("bob", in: site)["name"] == .string("ボブ"))
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    /// A name the loader refuses is refused before anything is written, by `user add` and
    /// `user set` alike, names the loader takes are written so they read back exactly.
    @Test(arguments: ["C\u{1B}[31m", "A\u{0}B", "\u{7}", "x\u{9B}2J", "   ", "\u{2028}", "\u{3000}\u{A0}"])
    func aNameTheProfileMayNotHaveIsRefusedAndNothingIsWritten(name: String) throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\n"])
        let added = runTomo(["user", "add", "carol", "--name", name], in: site.url)
        #expect(added.status == 2, "\(added.output)")
        #expect(added.error.contains("--name"))
        #expect(!added.error.contains("\u{1B}") && !added.error.contains("\u{9B}"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("content/users/carol.yaml").path))
        #expect(try StoreFile(site: site.url).read().users.isEmpty)
        #expect(runTomo(["user", "add", "carol"], in: site.url).status == 0)
        let before = text("content/users/carol.yaml", in: site)
        #expect(runTomo(["user", "set", "carol", "--name", name], in: site.url).status == 2)
        #expect(text("content/users/carol.yaml", in: site) == before)
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    /// A name that shows the address the profile keeps private is refused as the loader
    /// refuses it, in either spelling of its domain; with `showEmail: true` it is published.
    @Test func aNameShowingThePrivateAddressIsRefused() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\nbaseURL: https://example.com/\n"])
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        try site.write("content/users/alice.yaml", "name: Alice\nemail: alice.q@例え.jp\n")
        for name in ["Alice alice.q@例え.jp", "ALICE.Q@xn--r8jz45g.jp"] {
            let set = runTomo(["user", "set", "alice", "--name", name], in: site.url)
            #expect(set.status == 2, "\(name): \(set.output)")
            #expect(set.error.contains("this publishes alice.q@例え.jp, which `email:` keeps private"), "\(set.error)")
            #expect(text("content/users/alice.yaml", in: site) == "name: Alice\nemail: alice.q@例え.jp\n")
        }
        #expect(runTomo(["check"], in: site.url).status == 0)
        try site.write("content/users/alice.yaml", "name: Alice\nemail: alice.q@例え.jp\nshowEmail: true\n")
        #expect(runTomo(["user", "set", "alice", "--name", "Alice alice.q@例え.jp"], in: site.url).status == 0)
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    @Test(arguments: ["Zoë \"Z\" O'Neil", "名前\\と#コメント: ではない", "- dash", "1984", "true", "null", "tab\there", "two\nlines", "a\u{2028}b", "😀‍🔥"])
    func aNameTheProfileMayHaveIsWrittenSoItReadsBackExactly(name: String) throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: Test\nbaseURL: https://example.com/\n"])
        #expect(runTomo(["user", "add", "dave", "--name", name], in: site.url).status == 0)
        #expect(try show("dave", in: site)["name"] == .string(name))
        #expect(runTomo(["check"], in: site.url).status == 0)
        #expect(runTomo(["user", "set", "dave", "--name", "Dave"], in: site.url).status == 0)
        #expect(runTomo(["user", "set", "dave", "--name", name], in: site.url).status == 0)
        #expect(try show("dave", in: site)["name"] == .string(name))
    }
}
