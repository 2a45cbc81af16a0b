import Foundation
import Testing
import TomoSite
import TomoTestSupport

/// The privacy promise, checked as an outsider would: nothing private reaches the output.
///
/// One site carries private data of every kind, each piece marked with a unique string: e-mails
/// without `showEmail`, hidden items, the slugs, captions, alt texts and photos of followers-only,
/// private and hidden posts, blocks, picks, reports, locations, genders, pending requests. Three
/// oracles read what `tomo build` and `tomo serve` publish of it:
/// - no output file's name or bytes holds a marker;
/// - the output is byte for byte the output of the same site with all private data taken out
///   (nothing published depends on anything private: a photo of a private post would be an
///   extra file, a block an extra difference);
/// - `tomo serve` serves exactly that: every file of the build with the same bytes, no more.
@Suite(.serialized) struct PrivacyOracleTests {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content")

    /// Strings that appear only in private data; none may be published.
    static let markers = [
        "mkemail", "mkhiddenitem", "mkfollowersslug", "mkfollowerscaption", "mkfollowersalt", "mkfollowersphoto",
        "mkprivateslug", "mkprivatecaption", "mkprivatealt", "mkprivatephoto", "mkhiddenslug", "mkhiddencaption",
        "mkhiddenalt", "mkhiddenphoto", "mkreportreason", "mkgender", "mkseeking", "12.345678", "98.765432",
        "approveFollows", "hiddenPosts", "\"picks\"", "\"blocks\"", "\"reports\"",
        "mkjsonemail", "mkjsonhiddenitem", "mkdatedhiddenitem",
        // Icons of items not shown at the build date: one yet to come, one gone.
        "mkcomingicon", "mkgoneicon",
    ]

    /// The site; `withPrivateData: false` is the same site with every private thing taken out.
    static func makeSite(withPrivateData: Bool) throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Oracle\nbaseURL: https://oracle.example/\n")
        let secretEmail = withPrivateData ? "email: mkemail@private.example\n" : ""
        let hiddenItem = withPrivateData ? "  - text: mkhiddenitem\n    hidden: true\n" : ""
        try site.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\n\(secretEmail)items:\n  - text: Hello\n\(hiddenItem)")
        try site.write("content/users/bob.yaml", "name: Bob\nemail: bob@public.example\nshowEmail: true\n")
        try site.write("content/users/carol.yaml", "name: Carol\n\(secretEmail)")
        // A JSON profile reads its private fields as a YAML one does; a hidden item stays
        // hidden whatever its dates (one past what a build's clock counts, in 2262).
        let jsonPrivate = withPrivateData
            ? #", "email": "mkjsonemail@private.example", "items": [{"text": "Hi"}, {"text": "mkjsonhiddenitem", "hidden": true, "from": "2026-01-01", "until": "2999-12-31"}]"#
            : #", "items": [{"text": "Hi"}]"#
        try site.write("content/users/dave.json", "{\"name\": \"Dave\"\(jsonPrivate)}\n")
        if withPrivateData {
            try site.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\n\(secretEmail)items:\n  - text: Hello\n\(hiddenItem)  - text: mkdatedhiddenitem\n    hidden: true\n    from: 2026-01-01\n    until: 9999-12-31\n  - text: Soon\n    icon: alice/mkcomingicon.jpg\n    from: 2999-01-01\n  - text: Gone\n    icon: alice/mkgoneicon.jpg\n    until: 2001-01-01\n")
            try copyDemo("users/alice/icon.jpg", to: "content/users/alice/mkcomingicon.jpg", in: site)
            try copyDemo("users/alice/icon.jpg", to: "content/users/alice/mkgoneicon.jpg", in: site)
        }
        try copyDemo("users/alice/icon.jpg", to: "content/users/alice/icon.jpg", in: site)

        func post(_ id: String, photo: String, demoPhoto: String, visibility: String, caption: String, alt: String) throws {
            try site.write("content/posts/\(id).md", "---\nphoto: \(photo)\ndate: 2026-05-01T18:30:00+09:00\nalt: \(alt)\nvisibility: \(visibility)\n---\n\(caption)\n")
            let folder = id.split(separator: "/")[0]
            try copyDemo("posts/\(demoPhoto)", to: "content/posts/\(folder)/\(photo)", in: site)
        }
        try post("alice/sunset", photo: "sunset.jpg", demoPhoto: "alice/tokyo-bay-sunset.jpg", visibility: "public", caption: "Evening", alt: "A sunset")
        try post("bob/tram", photo: "tram.jpg", demoPhoto: "maria/alfama-tram.jpg", visibility: "public", caption: "Tram", alt: "A tram")
        if withPrivateData {
            // Each private photo is one no published post or profile uses.
            try post("alice/mkfollowersslug", photo: "mkfollowersphoto.jpg", demoPhoto: "hana/winter-study.jpg", visibility: "followers", caption: "mkfollowerscaption", alt: "mkfollowersalt")
            // Public while bob likes it (below), then made private: the like stays in the store.
            try post("alice/mkprivateslug", photo: "mkprivatephoto.jpg", demoPhoto: "kenji/tonkotsu.jpg", visibility: "public", caption: "mkprivatecaption", alt: "mkprivatealt")
            try post("bob/mkhiddenslug", photo: "mkhiddenphoto.jpg", demoPhoto: "kenji/shoyu-ramen.jpg", visibility: "public", caption: "mkhiddencaption", alt: "mkhiddenalt")
            // A photo of a private post that cannot be read must not stop the public build.
            try site.write("content/posts/carol/mkprivateslug.md", "---\nphoto: mkprivatephoto.jpg\ndate: 2026-05-01T18:30:00+09:00\nvisibility: private\n---\nmkprivatecaption\n")
            try site.write("content/posts/carol/mkprivatephoto.jpg", "not a photo")
        }

        var commands = [
            "user add alice", "user add bob", "user add carol", "user add dave",
            "follow alice bob", "follow bob alice", "like bob alice/sunset", "like alice bob/tram",
        ]
        if withPrivateData {
            commands += [
                "user set dave --approve-follows on", "follow carol dave",
                "like carol bob/mkhiddenslug", "post hide bob/mkhiddenslug",
                "block carol dave", "pick alice bob accept", "pick bob alice reject",
                "report carol bob/tram --reason mkreportreason", "like bob alice/mkprivateslug",
                "user set alice --location 12.345678,98.765432 --gender mkgender --seeking mkseeking",
            ]
        }
        try site.write("graph.txt", commands.joined(separator: "\n") + "\n")
        let batch = runTomo(["batch", "graph.txt"], in: site.url)
        #expect(batch.status == 0, "\(batch.error)")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("graph.txt"))
        try pinRecordTimes(in: site)
        if withPrivateData {
            try site.write("content/posts/alice/mkprivateslug.md", "---\nphoto: mkprivatephoto.jpg\ndate: 2026-05-01T18:30:00+09:00\nalt: mkprivatealt\nvisibility: private\n---\nmkprivatecaption\n")
        }
        return site
    }

    /// The two sites are made moments apart, and a registration time is published (an empty
    /// feed says when its owner registered): every record gets one fixed time, so that only
    /// the private data can make the two outputs differ.
    static func pinRecordTimes(in site: TemporaryFolder) throws {
        let store = site.url.appendingPathComponent("content/store.json")
        let text = try String(contentsOf: store, encoding: .utf8)
        let pinned = text.replacing(/"created":"[^"]*"/, with: "\"created\":\"2026-01-01T00:00:00.000Z\"")
        #expect(pinned != text, "the store's records carry no created time to pin")
        try pinned.write(to: store, atomically: true, encoding: .utf8)
    }

    static func copyDemo(_ path: String, to destination: String, in site: TemporaryFolder) throws {
        let target = site.url.appendingPathComponent(destination)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: demo.appendingPathComponent(path), to: target)
    }

    /// Every file under `folder`, by path, with its bytes.
    static func files(in folder: URL) throws -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        let root = folder.resolvingSymlinksInPath().path + "/"
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let path = String(url.resolvingSymlinksInPath().path.dropFirst(root.count))
            // tomo's record of its files names the folder's own marker: no part of the site.
            if path == OutputBookkeeping.record { continue }
            found[path] = Array(try Data(contentsOf: url))
        }
        return found
    }

    static func leaks(in files: [String: [UInt8]]) -> [String] {
        var leaks: [String] = []
        for (path, bytes) in files {
            for marker in markers {
                if path.contains(marker) { leaks.append("file name \(path) holds \(marker)") }
                if bytes.firstRange(of: Array(marker.utf8)) != nil { leaks.append("\(path) holds \(marker)") }
            }
        }
        return leaks.sorted()
    }

    @Test func aBuildPublishesNothingPrivateAndNothingThatDependsOnIt() throws {
        let seeded = try Self.makeSite(withPrivateData: true)
        let clean = try Self.makeSite(withPrivateData: false)
        let seededBuild = try runBinary(["build"], in: seeded.url)
        #expect(seededBuild.status == 0, "\(seededBuild.error)")
        #expect(try runBinary(["build"], in: clean.url).status == 0)
        let published = try Self.files(in: seeded.url.appendingPathComponent("public"))

        #expect(Self.leaks(in: published) == [])
        // The scan can see: a shown e-mail and the public posts are there, with their thumbnails.
        #expect(published["bob/index.html"]?.firstRange(of: Array("bob@public.example".utf8)) != nil)
        #expect(published["alice/posts/sunset/index.html"] != nil)
        #expect(published.keys.contains { $0.hasPrefix("media/bob/tram-") })

        let withoutPrivateData = try Self.files(in: clean.url.appendingPathComponent("public"))
        #expect(Set(published.keys) == Set(withoutPrivateData.keys))
        let differing = published.keys.filter { published[$0] != withoutPrivateData[$0] }.sorted()
        #expect(differing == [])
    }

    @Test func anIncrementalBuildAfterHidingAndMakingPrivateRemovesWhatWasPublished() throws {
        let site = try Self.makeSite(withPrivateData: false)
        #expect(try runBinary(["build"], in: site.url).status == 0)
        let before = try Self.files(in: site.url.appendingPathComponent("public"))
        #expect(before.keys.contains { $0.hasPrefix("media/bob/tram-") })
        #expect(runTomo(["post", "hide", "bob/tram"], in: site.url).status == 0)
        try site.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01T18:30:00+09:00\nvisibility: private\n---\nEvening\n")
        #expect(try runBinary(["build"], in: site.url).status == 0)
        let after = try Self.files(in: site.url.appendingPathComponent("public"))
        #expect(!after.keys.contains { $0.hasPrefix("media/bob/tram-") || $0.hasPrefix("media/alice/sunset-") })
        #expect(after["bob/posts/tram/index.html"] == nil)
        #expect(after["alice/posts/sunset/index.html"] == nil)
        #expect(try runBinary(["build", "--full", "--out", "full"], in: site.url).status == 0)
        #expect(Bool(try Self.files(in: site.url.appendingPathComponent("full")) == after))
    }

    @Test func whatThePreviewHoldsAfterHidingAndMakingPrivateIsAFreshBuild() throws {
        let site = try Self.makeSite(withPrivateData: false)
        let session = SiteSession(options: BuildOptions(site: site.url))
        var served = try session.buildAll().files
        func apply(_ update: SiteSession<[UInt8]>.Update) {
            served.merge(update.files) { _, new in new }
            for path in update.removed { served[path] = nil }
        }
        #expect(runTomo(["post", "hide", "bob/tram"], in: site.url).status == 0)
        apply(try session.rebuild(changedPaths: ["content/store.json"]))
        try site.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01T18:30:00+09:00\nvisibility: followers\n---\nEvening\n")
        apply(try session.rebuild(changedPaths: ["content/posts/alice/sunset.md"]))
        #expect(!served.keys.contains { $0.hasPrefix("media/bob/tram-") || $0.hasPrefix("media/alice/sunset-") })

        #expect(try runBinary(["build"], in: site.url).status == 0)
        var built = try Self.files(in: site.url.appendingPathComponent("public"))
        built[".tomo-output"] = nil
        #expect(Set(served.keys) == Set(built.keys))
        #expect(served.keys.filter { served[$0] != built[$0] }.sorted() == [])

        // And back: unhidden and public again, the photos are published again.
        #expect(runTomo(["post", "unhide", "bob/tram"], in: site.url).status == 0)
        apply(try session.rebuild(changedPaths: ["content/store.json"]))
        #expect(served.keys.contains { $0.hasPrefix("media/bob/tram-") })
    }

    @Test func tomoServeServesWhatTheBuildWritesAndNothingPrivate() throws {
        let site = try Self.makeSite(withPrivateData: true)
        #expect(try runBinary(["build"], in: site.url).status == 0)
        let built = try Self.files(in: site.url.appendingPathComponent("public"))

        // What the preview is handed: the whole site, as the session makes it.
        var session = try SiteSession(options: BuildOptions(site: site.url)).buildAll().files
        session[".tomo-output"] = built[".tomo-output"]
        #expect(Self.leaks(in: session) == [])
        #expect(Set(session.keys) == Set(built.keys))
        #expect(session.keys.filter { session[$0] != built[$0] }.sorted() == [])

        // What the real server answers: every file the build writes for the server's address,
        // with the same bytes, and no page of a private post.
        let server = try LoggedPreview(site: site.url)
        defer { server.stop() }
        let expected = try runBinary(["build", "--out", "expected", "--base-url", "http://127.0.0.1:\(server.port)/"], in: site.url)
        #expect(expected.status == 0, "\(expected.error)")
        let builtForServer = try Self.files(in: site.url.appendingPathComponent("expected"))
        #expect(builtForServer.count == built.count)
        for (path, bytes) in builtForServer where path != ".tomo-output" {
            let reply = try fetch(server.port, "/" + path)
            #expect(reply.status == 200, "\(path)")
            #expect(Bool(reply.body == bytes), "\(path) is served with other bytes than the build wrote")
        }
        for path in ["/alice/posts/mkfollowersslug/", "/alice/posts/mkprivateslug/", "/bob/posts/mkhiddenslug/", "/carol/posts/mkprivateslug/"] {
            let reply = try fetch(server.port, path)
            #expect(reply.status == 404, "\(path)")
            #expect(Self.leaks(in: ["body": reply.body]) == [])
        }
    }
}
