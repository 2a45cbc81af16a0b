import Foundation
import Testing
import TomoTestSupport

/// Share cards as a build publishes them: every profile's and post's link preview is its card,
/// at its real size; a card is kept while what it shows is, replaced when that changes; and no
/// card is made, let alone published, for anything that is not published.
@Suite struct ShareCardBuildTests {
    /// The `content` of each `<meta property|name="…">` of a page, by property.
    static func meta(_ html: String) -> [String: String] {
        var found: [String: String] = [:]
        for match in html.matches(of: /<meta (?:property|name)="([^"]+)" content="([^"]*)">/) {
            found[String(match.1)] = String(match.2)
        }
        return found
    }

    static func page(_ path: String, in site: TemporaryFolder) throws -> [String: String] {
        meta(try String(contentsOf: site.url.appendingPathComponent("public/" + path), encoding: .utf8))
    }

    /// The card a page's preview names, as a path in the output.
    static func cardPath(of meta: [String: String]) -> String? {
        guard let url = meta["og:image"], let media = url.range(of: "/media/") else { return nil }
        return "media/" + url[media.upperBound...]
    }

    @Test func everyProfileAndPostPreviewIsItsCardAtItsRealSize() throws {
        let site = try demoSiteCopy()
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        let output = site.url.appendingPathComponent("public")
        let handles = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("content/users").path)
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
        let profilePages = handles.map { "\($0)/index.html" }
        // Posts of the users there are (not the pages left at a renamed user's old address).
        let postPages = fileTree(output).keys.filter { path in
            path.wholeMatch(of: /[^\/]+\/posts\/[^\/]+\/index\.html/) != nil && handles.contains(String(path.prefix { $0 != "/" }))
        }
        let pages = profilePages + postPages
        #expect(handles.count == 8 && postPages.count >= 10)
        var cards: Set<String> = []
        for page in pages {
            let meta = try Self.page(page, in: site)
            let card = try #require(Self.cardPath(of: meta), "\(page): no card in \(meta["og:image"] ?? "nil")")
            #expect(card.contains("card-") && card.hasSuffix(".jpg"), "\(page): \(card)")
            let bytes = try #require(FileManager.default.contents(atPath: output.appendingPathComponent(card).path), "\(page): \(card) is not published")
            let size = try #require(JPEGSize.of(Array(bytes)))
            #expect(size == (1200, 630), "\(card)")
            #expect(meta["og:image:width"] == "1200" && meta["og:image:height"] == "630", "\(page)")
            #expect(meta["twitter:card"] == "summary_large_image", "\(page)")
            #expect(meta["og:image:alt"]?.isEmpty == false, "\(page)")
            cards.insert(card)
        }
        // One card each, and no other card in the output.
        #expect(cards.count == pages.count)
        #expect(Set(fileTree(output).keys.filter { $0.contains("card-") }) == cards)
    }

    @Test func aCardIsReusedUntilWhatItShowsChangesAndTheOldOneLeavesTheOutput() throws {
        let site = try demoSiteCopy()
        #expect(runTomo(["build"], in: site.url).status == 0)
        let before = try #require(Self.cardPath(of: try Self.page("alice/index.html", in: site)))
        let postBefore = try #require(Self.cardPath(of: try Self.page("alice/posts/tokyo-bay-sunset/index.html", in: site)))
        let cacheFolder = site.url.appendingPathComponent(".tomo-cache/cards")
        let cached = try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).sorted()
        let stamp = try FileManager.default.attributesOfItem(atPath: site.url.appendingPathComponent("public/" + before).path)[.modificationDate] as? Date

        // Another user's display name: alice's card is the same file; only the cards that show
        // that name (the user's own and their posts') are drawn.
        let maria = site.url.appendingPathComponent("content/users/maria.yaml")
        try (try String(contentsOf: maria, encoding: .utf8)).replacingOccurrences(of: "name: ", with: "name: Dr ").write(to: maria, atomically: true, encoding: .utf8)
        #expect(runTomo(["build"], in: site.url).status == 0)
        #expect(Self.cardPath(of: try Self.page("alice/index.html", in: site)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: site.url.appendingPathComponent("public/" + before).path)[.modificationDate] as? Date == stamp)
        let mariaPosts = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("content/posts/maria").path).filter { $0.hasSuffix(".md") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).count == cached.count + 1 + mariaPosts.count)

        // Alice's display name: her profile's card and her posts' cards are new; the old ones go.
        let alice = site.url.appendingPathComponent("content/users/alice.yaml")
        try (try String(contentsOf: alice, encoding: .utf8)).replacingOccurrences(of: "name: Alice Example", with: "name: Alice B. Example").write(to: alice, atomically: true, encoding: .utf8)
        #expect(runTomo(["build"], in: site.url).status == 0)
        let after = try #require(Self.cardPath(of: try Self.page("alice/index.html", in: site)))
        let postAfter = try #require(Self.cardPath(of: try Self.page("alice/posts/tokyo-bay-sunset/index.html", in: site)))
        #expect(after != before && postAfter != postBefore)
        for gone in [before, postBefore] {
            #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/" + gone).path), "\(gone) is still published")
        }
        for made in [after, postAfter] {
            #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/" + made).path), "\(made) is not published")
        }
    }

    /// A profile's own `language`, or the site's, is the language of its card and of its posts'
    /// cards: changing it draws them again.
    @Test func aProfilesLanguageIsTheLanguageOfItsCards() throws {
        let site = try demoSiteCopy()
        #expect(runTomo(["build"], in: site.url).status == 0)
        let profile = try #require(Self.cardPath(of: try Self.page("alice/index.html", in: site)))
        let post = try #require(Self.cardPath(of: try Self.page("alice/posts/tokyo-bay-sunset/index.html", in: site)))
        let maria = try #require(Self.cardPath(of: try Self.page("maria/index.html", in: site)))
        let alice = site.url.appendingPathComponent("content/users/alice.yaml")
        try (try String(contentsOf: alice, encoding: .utf8)).replacingOccurrences(of: "name: Alice Example", with: "language: zh-Hant\nname: Alice Example").write(to: alice, atomically: true, encoding: .utf8)
        #expect(runTomo(["build"], in: site.url).status == 0)
        #expect(try Self.cardPath(of: try Self.page("alice/index.html", in: site)) != profile)
        #expect(try Self.cardPath(of: try Self.page("alice/posts/tokyo-bay-sunset/index.html", in: site)) != post)
        #expect(try Self.cardPath(of: try Self.page("maria/index.html", in: site)) == maria)
    }

    /// `disableKinds: [cards]`: no card is drawn or published, a profile's preview is its header
    /// (or icon), a post's its photo; turning it on and off again, each incremental build is
    /// the full build.
    @Test func disablingCardsPublishesNoneAndPreviewsShowTheProfilesAndPostsOwnImages() throws {
        let site = try demoSiteCopy()
        #expect(runTomo(["build"], in: site.url).status == 0)
        let withCards = fileTree(site.url.appendingPathComponent("public"))
        let siteYAML = site.url.appendingPathComponent("content/site.yaml")
        let original = try String(contentsOf: siteYAML, encoding: .utf8)
        try (original + "disableKinds: [cards]\n").write(to: siteYAML, atomically: true, encoding: .utf8)
        #expect(runTomo(["build"], in: site.url).status == 0)
        let without = fileTree(site.url.appendingPathComponent("public"))
        let cards = without.keys.filter { $0.contains("card-") && $0.hasSuffix(".jpg") }
        #expect(cards.isEmpty, "\(cards)")
        #expect(withCards.keys.contains { $0.hasPrefix("media/alice/card-") })
        let alice = try Self.page("alice/index.html", in: site)
        #expect(alice["og:image"]?.contains("/media/alice/header-") == true, "\(alice["og:image"] ?? "")")
        let post = try Self.page("alice/posts/tokyo-bay-sunset/index.html", in: site)
        #expect(post["og:image"]?.contains("/media/alice/") == true && post["og:image"]?.contains("card") == false, "\(post["og:image"] ?? "")")
        func expectTheFullBuild(_ tree: [String: Data], _ label: String) {
            let out = site.url.appendingPathComponent("full-\(label.count)")
            #expect(runTomo(["build", "--full", "--out", out.path], in: site.url).status == 0)
            #expect(differences(tree, fileTree(out)).isEmpty, "\(label): \(differences(tree, fileTree(out)).prefix(5))")
        }
        expectTheFullBuild(without, "without cards")
        try original.write(to: siteYAML, atomically: true, encoding: .utf8)
        #expect(runTomo(["build"], in: site.url).status == 0)
        expectTheFullBuild(fileTree(site.url.appendingPathComponent("public")), "with cards again")
        #expect(differences(withCards, fileTree(site.url.appendingPathComponent("public"))).isEmpty)
    }

    @Test func nothingUnpublishedGetsACard() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Cards\nbaseURL: https://cards.example/\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        func post(_ slug: String, _ front: String, date: String = "2026-05-01T18:30:00+09:00") throws {
            try site.write("content/posts/alice/\(slug).md", "---\nphoto: \(slug).jpg\ndate: \(date)\n\(front)---\n\(slug) caption\n")
            try FileManager.default.copyItem(at: sampleJPEG, to: site.url.appendingPathComponent("content/posts/alice/\(slug).jpg"))
        }
        try post("shown", "")
        try post("mkprivate", "visibility: private\n")
        try post("mkfollowers", "visibility: followers\n")
        try post("mkdraft", "draft: true\n")
        try post("mkfuture", "", date: "2999-01-01T00:00:00Z")
        try post("mkhidden", "")
        try site.write("graph.txt", "user add alice\npost hide alice/mkhidden\n")
        #expect(runTomo(["batch", "graph.txt"], in: site.url).status == 0)
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")

        let output = fileTree(site.url.appendingPathComponent("public"))
        let markers = ["mkprivate", "mkfollowers", "mkdraft", "mkfuture", "mkhidden"]
        for (path, bytes) in output {
            for marker in markers {
                #expect(!path.contains(marker), "\(path) is named after \(marker)")
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(path) holds \(marker)")
            }
        }
        // Alice's card and the one public post's: nothing else was even drawn.
        #expect(output.keys.filter { $0.contains("card-") }.count == 2)
        let cache = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent(".tomo-cache/cards").path)
        #expect(cache.filter { $0.hasSuffix(".jpg") }.count == 2)
    }
}
