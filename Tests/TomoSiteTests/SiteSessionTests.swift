import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoSite

@Suite struct SiteSessionTests {
    func session(_ site: SiteFolder) -> SiteSession<[UInt8]> {
        SiteSession(options: BuildOptions(site: site.root))
    }

    func text(_ update: SiteSession<[UInt8]>.Update, _ path: String) -> String? {
        update.files[path].map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func buildsTheWholeSiteInMemoryWithoutTouchingTheDisk() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n"])
        let update = try session(site).buildAll()
        #expect(text(update, "alice/index.html")?.contains("<h1 class=\"name p-name\" dir=\"auto\">Alice</h1>") == true)
        #expect(update.files["search.json"] != nil)
        #expect(!FileManager.default.fileExists(atPath: site.output.path))
    }

    @Test func aProfileEditMakesOnlyTheFilesThatShowThatProfile() throws {
        var files = ["content/users/alice.yaml": "name: Alice\n"]
        for index in 0..<30 { files["content/users/user\(index).yaml"] = "name: User \(index)\n" }
        let site = try SiteFolder(files)
        let session = session(site)
        let first = try session.buildAll()
        try site.write("content/users/alice.yaml", "name: Alice Changed\n")
        let update = try session.rebuild(changedPaths: ["content/users/alice.yaml"])
        #expect(update.made < first.made / 5)
        #expect(update.changed.contains("alice/index.html"))
        #expect(update.changed.contains("index.html"))
        #expect(update.changed.contains("search.json"))
        #expect(!update.changed.contains("user7/index.html"))
        #expect(text(update, "alice/index.html")?.contains("Alice Changed") == true)
        #expect(update.fileCount == first.fileCount)
        #expect(!update.isWhole)
    }

    /// `.tomo-cache/` deleted while the preview runs: the next rebuild makes the thumbnails it
    /// lost again (a card drawn from one of them failed with "does not exist"), and shows what a
    /// fresh build makes.
    @Test func aRebuildAfterTheCacheWasDeletedMakesWhatItLost() throws {
        let site = try SiteFolder([
            "content/users/carol.yaml": "name: Carol\n",
            "content/posts/carol/p.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: A\n---\nHello\n",
        ])
        try site.writePhoto(forPostsOf: "carol")
        let session = session(site)
        _ = try session.buildAll()
        try FileManager.default.removeItem(at: site.root.appendingPathComponent(".tomo-cache"))
        try site.write("content/users/carol.yaml", "name: Carol Renamed\n")
        let update = try session.rebuild(changedPaths: ["content/users/carol.yaml"])
        #expect(text(update, "carol/index.html")?.contains("Carol Renamed") == true)
        let fresh = try SiteSession<[UInt8]>(options: BuildOptions(site: site.root)).buildAll()
        #expect(update.files.keys.allSatisfy { fresh.files[$0] == update.files[$0] })
    }

    /// A rebuild's warnings are the last ones with those of the files it read again replaced:
    /// a fixed warning goes, a new one comes, the other users' stay.
    @Test func aRebuildReplacesTheWarningsOfTheFilesItReadAgain() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n"])
        try site.write("content/users/alice/icon.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        let session = session(site)
        func warned(_ update: SiteSession<[UInt8]>.Update) -> [String] { update.warnings.compactMap(\.location?.file).sorted() }
        #expect(warned(try session.buildAll()) == ["content/users/alice.yaml", "content/users/bob.yaml"])
        try site.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\n")
        #expect(warned(try session.rebuild(changedPaths: ["content/users/alice.yaml"])) == ["content/users/bob.yaml"])
        try site.write("content/users/alice.yaml", "name: Alice Changed\nicon: alice/icon.jpg\n")
        #expect(warned(try session.rebuild(changedPaths: ["content/users/alice.yaml"])) == ["content/users/bob.yaml"])
        try site.write("content/users/alice.yaml", "name: Alice\n")
        #expect(warned(try session.rebuild(changedPaths: ["content/users/alice.yaml"])) == ["content/users/alice.yaml", "content/users/bob.yaml"])
        try site.write("content/users/bob.yaml", "name: Bobby\n")
        let same = try session.rebuild(changedPaths: ["content/users/bob.yaml"])
        #expect(warned(same) == ["content/users/alice.yaml", "content/users/bob.yaml"])
        #expect(same.warnings.count == 2)
    }

    /// The search index's entries are taken over from one rebuild to the next, each only while
    /// nothing it shows changed: after edits of names, bios, an icon, the site's address and a
    /// user's removal, the preview's search.json is the one a fresh session makes.
    @Test func theSearchIndexAfterEditsIsTheOneAFreshBuildMakes() throws {
        var files = ["content/users/alice.yaml": "name: Alice\n", "content/site.yaml": "title: Friends\n"]
        for index in 0..<12 { files["content/users/user\(index).yaml"] = "name: User \(index)\nbio: Bio \(index).\n" }
        let site = try SiteFolder(files)
        try site.write("content/users/alice/icon.jpg", bytes: Array(try Data(contentsOf: SiteBuildTests.demoIcon)))
        let session = session(site)
        var served = try #require(session.buildAll().files["search.json"])
        let edits: [(path: String, text: String)] = [
            ("content/users/alice.yaml", "name: Alice Changed\n"),
            ("content/users/user3.yaml", "name: User Three\nbio: A new bio.\n"),
            ("content/users/alice.yaml", "name: Alice Changed\nicon: alice/icon.jpg\n"),
            ("content/users/user5.yaml", "name: User 5 \"quoted\"\n"),
            ("content/site.yaml", "title: Friends\nbaseURL: https://example.com/friends/\n"),
            ("content/users/user7.yaml", "name: Seven\n"),
            ("content/users/user9.yaml", ""),
            ("content/users/user3.yaml", "name: User Three\n"),
        ]
        for (path, text) in edits {
            if text.isEmpty {
                try FileManager.default.removeItem(at: site.root.appendingPathComponent(path))
            } else {
                try site.write(path, text)
            }
            if let file = try session.rebuild(changedPaths: [path]).files["search.json"] { served = file }
            let fresh = try #require(self.session(site).buildAll().files["search.json"])
            #expect(String(decoding: served, as: UTF8.self) == String(decoding: fresh, as: UTF8.self), "after writing \(path)")
        }
        let index = String(decoding: served, as: UTF8.self)
        #expect(index.contains(#""name":"User 5 \"quoted\"""#))
        #expect(index.contains(#""url":"/friends/alice/""#))
        #expect(index.contains(#""src":"/friends/media/alice/icon-"#))
        #expect(!index.contains(#""handle":"user9""#))
    }

    @Test func anEditorsTemporaryFileBesideTheProfilesIsNotTakenForAnImage() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n"])
        let session = session(site)
        _ = try session.buildAll()
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: New item\n")
        // `sed -i` writes a temporary file and renames it over the profile: both paths change.
        let update = try session.rebuild(changedPaths: ["content/users/sedX4c9Qa", "content/users/alice.yaml"])
        #expect(update.made == 1, "the profile page alone: the feed and every other page show only the name, icon and bio")
        #expect(update.changed == ["alice/index.html"])
    }

    /// The contact card shows the name, bio, links and icon, and no item.
    @Test func aBioEditRemakesTheContactCardAndAnItemEditDoesNot() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        let session = session(site)
        _ = try session.buildAll()
        try site.write("content/users/alice.yaml", "name: Alice\nbio: Film, mostly.\n")
        let bio = try session.rebuild(changedPaths: ["content/users/alice.yaml"])
        #expect(bio.changed.contains("alice/contact.vcf"))
        #expect(text(bio, "alice/contact.vcf")?.contains("NOTE:Film\\, mostly.\r\n") == true)
        try site.write("content/users/alice.yaml", "name: Alice\nbio: Film, mostly.\nitems:\n  - text: New item\n")
        let item = try session.rebuild(changedPaths: ["content/users/alice.yaml"])
        #expect(item.made == 1 && item.changed == ["alice/index.html"])
    }

    @Test func aStylesheetEditChangesOnlyTheStylesheet() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "templates/static/extra.css": "a{}\n"])
        let session = session(site)
        _ = try session.buildAll()
        try site.write("templates/static/extra.css", "a{color:red}\n")
        let update = try session.rebuild(changedPaths: ["templates/static/extra.css"])
        #expect(update.changed == ["static/extra.css"])
        #expect(update.made == 1)
    }

    @Test func aBrokenEditKeepsTheLastGoodSiteAndTheNextGoodOneCatchesUp() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n"])
        let session = session(site)
        _ = try session.buildAll()
        try site.write("content/users/bob.yaml", "name: Bobby\n")
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: x\n    color: pruple\n")
        #expect(throws: DiagnosticList.self) { try session.rebuild(changedPaths: ["content/users/bob.yaml", "content/users/alice.yaml"]) }
        try site.write("content/users/alice.yaml", "name: Alice again\n")
        let update = try session.rebuild(changedPaths: ["content/users/alice.yaml"])
        #expect(text(update, "alice/index.html")?.contains("Alice again") == true)
        #expect(text(update, "bob/index.html")?.contains("Bobby") == true, "the edit made during the failure is caught up")
    }

    @Test func newAndDeletedProfilesAddAndRemoveTheirPages() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        let session = session(site)
        _ = try session.buildAll()
        try site.write("content/users/carol.yaml", "name: Carol\n")
        let added = try session.rebuild(changedPaths: ["content/users/carol.yaml"])
        #expect(added.changed.isSuperset(of: ["carol/index.html", "carol/followers/index.html", "carol/following/index.html"]))
        #expect(text(added, "index.html")?.contains(#"data-handle="carol""#) == true)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/users/carol.yaml"))
        let removed = try session.rebuild(changedPaths: ["content/users/carol.yaml"])
        let pages: Set = ["carol/index.html", "carol/followers/index.html", "carol/following/index.html", "carol/timeline/index.html", "carol/feed.xml", "carol/qr.svg", "carol/contact.vcf"]
        #expect(removed.removed.subtracting(pages).map { $0.hasPrefix("media/carol/card-") } == [true], "\(removed.removed)")
        #expect(removed.removed.isSuperset(of: pages))
        #expect(text(removed, "index.html")?.contains(#"data-handle="carol""#) == false)
    }

    @Test func aStoreChangeUpdatesTheCounts() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n"])
        let session = session(site)
        _ = try session.buildAll()
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            _ = try store.addUser("alice")
            _ = try store.addUser("bob")
            return try store.follow("bob", "alice")
        }
        let update = try session.rebuild(changedPaths: ["content/store.json"])
        #expect(text(update, "alice/index.html")?.contains(">1 follower</a>") == true)
    }

    @Test func aFollowRemakesOnlyThePagesOfTheTwoUsers() throws {
        var files: [String: String] = [:]
        for index in 0..<30 { files["content/users/user\(index).yaml"] = "name: User \(index)\n" }
        let site = try SiteFolder(files)
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            for index in 0..<30 { _ = try store.addUser("user\(index)") }
            return .changed("users")
        }
        let session = session(site)
        let first = try session.buildAll()
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            try store.follow("user1", "user2")
        }
        let update = try session.rebuild(changedPaths: ["content/store.json"])
        #expect(update.made < first.made / 5)
        #expect(update.changed.isSuperset(of: ["user2/index.html", "user2/followers/index.html", "user1/index.html", "user1/following/index.html"]))
        #expect(!update.changed.contains("user7/index.html"))
        #expect(text(update, "user2/index.html")?.contains(">1 follower</a>") == true)
    }
}

@Suite struct SiteSessionPostTests {
    @Test func aNewPostAndACaptionEditAppearAfterARebuild() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        try site.writePhoto(forPostsOf: "alice")
        let session = SiteSession(options: BuildOptions(site: site.root))
        _ = try session.buildAll()
        try site.write("content/posts/alice/dawn.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: dawn\n---\nFirst light\n")
        let added = try session.rebuild(changedPaths: ["content/posts/alice/dawn.md", "content/posts/alice/p.jpg"])
        #expect(added.changed.contains("alice/posts/dawn/index.html"))
        #expect(added.changed.contains("alice/index.html"))
        #expect(added.changed.contains { $0.hasPrefix("media/alice/p-") })
        try site.write("content/posts/alice/dawn.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: dawn\n---\nFirst light, again\n")
        let edited = try session.rebuild(changedPaths: ["content/posts/alice/dawn.md"])
        let page = edited.files["alice/posts/dawn/index.html"].map { String(decoding: $0, as: UTF8.self) }
        #expect(page?.contains("First light, again") == true)
        #expect(!edited.changed.contains("404.html"))
    }
}

/// A rebuild after a small edit takes over the post cards the last one made (those that read
/// nothing that changed). Each edit below changes what a card on alice's timeline shows; after
/// each one, every file `tomo serve` holds is the file a fresh build makes.
@Suite struct SiteSessionCardTests {
    @Test func cardsTakenOverFromTheLastRebuildShowEveryLaterEdit() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n", "content/users/bob.yaml": "name: Bob\n", "content/users/cat.yaml": "name: Cat\n",
            "content/posts/bob/dawn.md": "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: dawn\n---\nFirst light\n",
            "content/posts/cat/dusk.md": "---\nphoto: p.jpg\ndate: 2026-05-02\nalt: dusk\n---\nLast light\n",
        ])
        for handle in ["bob", "cat"] { try site.write("content/posts/\(handle)/p.jpg", bytes: PostPagesTests.photo) }
        _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in
            for handle in ["alice", "bob", "cat"] { _ = try store.addUser(handle) }
            _ = try store.follow("alice", "bob")
            return try store.follow("alice", "cat")
        }
        let session = SiteSession(options: BuildOptions(site: site.root))
        var served = try session.buildAll().files
        func rebuild(_ path: String, _ edit: () throws -> Void) throws -> String {
            try edit()
            let update = try session.rebuild(changedPaths: [path])
            served.merge(update.files) { _, new in new }
            for removed in update.removed { served[removed] = nil }
            let fresh = try SiteSession(options: BuildOptions(site: site.root)).buildAll().files
            #expect(Set(served.keys) == Set(fresh.keys), "after \(path)")
            for (file, bytes) in fresh where served[file] != bytes {
                Issue.record("after an edit of \(path), tomo serve's \(file) differs from a fresh build's")
            }
            return served["alice/timeline/index.html"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        // Makes alice's timeline again: both cards are made with what they read, and kept.
        #expect(try rebuild("content/users/bob.yaml") { try site.write("content/users/bob.yaml", "name: Bob Two\n") }.contains(">Bob Two</a>"))
        #expect(try rebuild("content/posts/bob/dawn.md") {
            try site.write("content/posts/bob/dawn.md", "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: dawn\n---\nFirst light, again\n")
        }.contains("First light, again"))
        #expect(try rebuild("content/users/cat.yaml") { try site.write("content/users/cat.yaml", "name: Cat Two\n") }.contains(">Cat Two</a>"))
        #expect(try rebuild("content/store.json") {
            _ = try StoreFile(site: site.root).update { store throws(Diagnostic) in try store.like("bob", PostID(handle: "cat", slug: "dusk"), visibility: .public) }
        }.contains(#"data-post-id="cat/dusk" data-like-count="1""#))
        #expect(try rebuild("templates/labels/en.json") {
            try site.write("templates/labels/en.json", #"{"likesCount": {"one": "{count} heart", "other": "{count} hearts"}}"#)
        }.contains("1 heart<"))
    }
}
