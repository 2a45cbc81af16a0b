import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// One rule for symbolic links among the content and template files and folders: a link whose
/// target stays inside the site folder is followed and its target is what a build stamps, so
/// editing the target is a change; a link that leads out of the site, or into a loop, is an
/// error naming the link, in `tomo build` and `tomo check` alike, and nothing is published.
@Suite struct SymbolicLinkTests {
    /// A content or template path made a link, the file (or folder) it leads to, and an edit of
    /// the target that shows on a page.
    struct Linked: Sendable, CustomTestStringConvertible {
        var link: String
        /// Where the target sits, relative to the site (inside it) or to a folder outside.
        var target: String
        /// The files of the target: relative to `target` for a folder, "" for the file itself.
        var files: [String: String]
        var edit: (file: String, text: String)
        var page: String
        var shows: String
        var testDescription: String { link }
    }

    static let post = "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nFirst caption\n"

    static let cases = [
        Linked(link: "content/posts/alice", target: "shared/alice", files: ["sunset.md": post],
               edit: ("sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nSecond caption\n"),
               page: "alice/posts/sunset/index.html", shows: "Second caption"),
        Linked(link: "content/users/alice.yaml", target: "shared/alice.yaml", files: ["": "name: Alice\n"],
               edit: ("", "name: Alice Linked\n"), page: "alice/index.html", shows: "Alice Linked"),
        Linked(link: "templates/profile.mustache", target: "shared/profile.mustache", files: ["": "<p>first {{user.name}}</p>"],
               edit: ("", "<p>second {{user.name}}</p>"), page: "alice/index.html", shows: "second Alice"),
        Linked(link: "templates", target: "shared/theme", files: ["profile.mustache": "<p>first {{user.name}}</p>"],
               edit: ("profile.mustache", "<p>third {{user.name}}</p>"), page: "alice/index.html", shows: "third Alice"),
        // The root static folder: a file and a hidden folder.
        Linked(link: "static/robots.txt", target: "shared/robots.txt", files: ["": "# Alice\nUser-agent: *\nDisallow: /a\n"],
               edit: ("", "# Alice\nUser-agent: *\nDisallow: /b\n"), page: "robots.txt", shows: "Disallow: /b"),
        Linked(link: "static/.well-known", target: "shared/well-known", files: ["atproto-did": "did:plc:Alice-first"],
               edit: ("atproto-did", "did:plc:Alice-second"), page: ".well-known/atproto-did", shows: "did:plc:Alice-second"),
    ]

    /// A site with alice (profile, a post and its photo), `linked.link` made a link to
    /// `linked.target` under `targetRoot` (the site when nil).
    static func site(_ linked: Linked, targetRoot: URL? = nil) throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
            "content/posts/alice/sunset.md": post,
        ])
        try site.copy(sampleJPEG, to: "content/posts/alice/sunset.jpg")
        let root = targetRoot ?? site.url
        let link = site.url.appendingPathComponent(linked.link)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (file, text) in linked.files {
            try write(text, to: root.appendingPathComponent(file.isEmpty ? linked.target : linked.target + "/" + file))
        }
        if linked.link == "content/posts/alice" {
            try FileManager.default.copyItem(at: sampleJPEG, to: root.appendingPathComponent(linked.target + "/sunset.jpg"))
        }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root.appendingPathComponent(linked.target))
        return site
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test(arguments: cases) func editingTheTargetOfALinkInsideTheSiteIsAChange(linked: Linked) throws {
        let site = try Self.site(linked)
        let first = runTomo(["build"], in: site.url)
        #expect(first.status == 0, "\(first.error)")
        // Well after the first build, so that the stamps differ however coarse the clock.
        Thread.sleep(forTimeInterval: 0.02)
        let file = linked.edit.file
        try Self.write(linked.edit.text, to: site.url.appendingPathComponent(file.isEmpty ? linked.target : linked.target + "/" + file))
        let second = runTomo(["build"], in: site.url)
        #expect(second.status == 0, "\(second.error)")
        #expect(!second.output.contains("Nothing changed"), "\(second.output)")
        let built = SiteTree.files(in: site.url.appendingPathComponent("public"))
        #expect(built[linked.page].map { String(decoding: $0, as: UTF8.self).contains(linked.shows) } == true)
        let full = runTomo(["build", "--full", "--out", "full"], in: site.url)
        #expect(full.status == 0, "\(full.error)")
        #expect(built == SiteTree.files(in: site.url.appendingPathComponent("full")), "the incremental build equals a full one")
    }

    @Test(arguments: cases) func aLinkLeavingTheSiteIsAnErrorAndNothingIsPublished(linked: Linked) throws {
        let outside = try TemporaryFolder()
        let site = try Self.site(linked, targetRoot: outside.url)
        let target = outside.url.appendingPathComponent(linked.target).resolvingSymlinksInPath().path
        let message = "error: \(linked.link):1:1: this is a symbolic link to \(target), outside the site"
        for command in [["check"], ["build"], ["build", "--full"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains(message), "\(command): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path), "nothing is published")
    }

    /// A loop of links (one leading to another and back) and a link to a folder holding it.
    @Test(arguments: [("content/posts/alice", "bob", "content/posts/bob", "alice"), ("content/posts/bob", "..", nil, nil),
                      ("templates/again", ".", nil, nil), ("static/again", ".", nil, nil)])
    func aLoopOfLinksIsAnError(link: String, target: String, other: String?, otherTarget: String?) throws {
        let site = try Self.site(Self.cases[1])
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent(link).deletingLastPathComponent(), withIntermediateDirectories: true)
        if link == "content/posts/alice" { try FileManager.default.removeItem(at: site.url.appendingPathComponent(link)) }
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent(link).path, withDestinationPath: target)
        if let other, let otherTarget {
            try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent(other).path, withDestinationPath: otherTarget)
        }
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("error: \(link):1:1: ") && run.error.contains("loop"), "\(command): \(run.error)")
        }
    }
}

extension SymbolicLinkTests {
    /// A link into a hidden part of the site (tomo's own cache, which holds the private fields
    /// it parsed; a repository's history) makes none of it an input: it is an error at the link.
    /// In `static/`, the preview's own writes under `.tomo-cache` rebuilt it without end.
    @Test(arguments: [("static/cache", "../.tomo-cache"), ("static/git", "../.git"), ("templates/partials", "../.hidden/theme"),
                      ("content/posts/alice", "../../.tomo-cache/content")])
    func aLinkIntoAHiddenPartOfTheSiteIsAnError(link: String, target: String) throws {
        let site = try Self.site(Self.cases[1])
        #expect(runTomo(["build"], in: site.url).status == 0)
        try site.write(".git/HEAD", "ref: refs/heads/main\n")
        try site.write(".hidden/theme/card.mustache", "x")
        let url = site.url.appendingPathComponent(link)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("error: \(link):1:1: this is a symbolic link to ") && run.error.contains("a hidden part of the site that tomo never reads or publishes"), "\(command): \(run.error)")
        }
    }

    /// A link into `content/` reads a content file under a second name, or publishes it as it
    /// is: bob's hidden post as alice's, the store and a private post's text and photo as static
    /// files, as a page. Each is an error at the link, in check and build, and nothing of bob's
    /// is published; `content` itself may still be a link, and so may a photo leading to another
    /// of its folder (`PostCommandTests.rmKeepsAPhotoAnotherPostMayShowHoweverItNamesIt`).
    @Test(arguments: [("content/posts/alice", "bob"), ("content/posts/alice/x.md", "../bob/spam.md"),
                      ("static/store.json", "../content/store.json"), ("static/b", "../content/posts/bob"),
                      ("templates/static", "../content/posts/bob"), ("static/all", "../content"),
                      ("content/pages/x.md", "../posts/bob/spam.md"), ("static/p.jpg", "../content/posts/bob/spam.jpg")])
    func aLinkIntoContentIsAnError(link: String, target: String) throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        for handle in ["alice", "bob"] { #expect(runTomo(["user", "add", handle], in: site.url).status == 0) }
        try site.write("content/posts/bob/spam.md", "---\nphoto: spam.jpg\ndate: 2026-05-01\nalt: HIDDENALT\n---\nHIDDENCAPTION\n")
        try site.copy(sampleJPEG, to: "content/posts/bob/spam.jpg")
        try site.copy(sampleJPEG, to: "content/posts/alice/spam.jpg")
        #expect(runTomo(["report", "alice", "bob/spam", "--reason", "SECRETREASON"], in: site.url).status == 0)
        #expect(runTomo(["post", "hide", "bob/spam"], in: site.url).status == 0)
        #expect(runTomo(["check"], in: site.url).status == 0, "the site is good before the link")
        let url = site.url.appendingPathComponent(link)
        if link == "content/posts/alice" { try FileManager.default.removeItem(at: url) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("error: \(link):1:1: this is a symbolic link to ") && run.error.contains("every file in content/ is read under its own name only"), "\(command): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path), "nothing is published")
    }

    /// Two names in one content folder for one place outside `content/` (posts folders both
    /// links to it) would read its posts twice: the second name is an error, in check and build
    /// alike; a photo may have two names.
    @Test(arguments: [("content/posts/bob", "content/posts/mallory", "../../shared/bob")])
    func twoNamesForOnePlaceInAContentFolderAreAnError(first: String, second: String, target: String) throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        for handle in ["bob", "mallory"] { #expect(runTomo(["user", "add", handle], in: site.url).status == 0) }
        let shared = target.hasSuffix(".md") ? "shared" : "shared/bob"
        try site.write(shared + "/spam.md", "---\nphoto: spam.jpg\ndate: 2026-05-01\nalt: A\n---\nHIDDENCAPTION\n")
        try site.copy(sampleJPEG, to: "content/posts/bob/spam.jpg")
        try site.copy(sampleJPEG, to: shared + "/spam.jpg")
        for link in [first, second] {
            try FileManager.default.createDirectory(at: site.url.appendingPathComponent(link).deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: site.url.appendingPathComponent(link))
            try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent(link).path, withDestinationPath: target)
        }
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("error: \(second):1:1: this is a symbolic link to the file or folder that \(first) is too"), "\(command): \(run.error)")
        }
        // One name of the two is fine.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(second))
        #expect(runTomo(["build"], in: site.url).status == 0)
    }

    /// A post's file may not be a link (to a file outside `content/`): from two folders, one
    /// file would be two posts, one hidden and the other published.
    @Test func aPostFileMayNotBeALink() throws {
        let site = try Self.site(Self.cases[1])
        try site.write("shared/p.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A\n---\nText\n")
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("content/posts/alice/p.md").path, withDestinationPath: "../../../shared/p.md")
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1 && run.error.contains("error: content/posts/alice/p.md:1:1: this is a symbolic link to ") && run.error.contains("a post's file may not be one"), "\(command): \(run.error)")
        }
    }

    /// `content` a link into a folder published as it is would publish every content file.
    @Test(arguments: ["static/c", "templates/static/c"]) func theContentFolderMayNotLeadIntoAPublishedFolder(folder: String) throws {
        let site = try Self.site(Self.cases[1])
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent(folder).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: site.url.appendingPathComponent("content"), to: site.url.appendingPathComponent(folder))
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("content").path, withDestinationPath: folder)
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1 && run.error.contains("error: content:1:1: this is a symbolic link to ") && run.error.contains("whose files are published as they are"), "\(command): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    /// `content` itself a link to a folder elsewhere in the site is read as the site's content.
    @Test func theContentFolderMayBeALink() throws {
        let site = try Self.site(Self.cases[1])
        try FileManager.default.moveItem(at: site.url.appendingPathComponent("content"), to: site.url.appendingPathComponent("data"))
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("content").path, withDestinationPath: "data")
        let run = runTomo(["build"], in: site.url)
        #expect(run.status == 0, "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/alice/posts/sunset/index.html").path))
    }

    /// A link re-pointed out of the site after a good build: the build fails on it and the
    /// output stays as it was.
    @Test(arguments: cases) func aLinkRepointedOutOfTheSiteLeavesTheOutputAsItWas(linked: Linked) throws {
        let site = try Self.site(linked)
        #expect(runTomo(["build"], in: site.url).status == 0)
        let before = SiteTree.files(in: site.url.appendingPathComponent("public"))
        let outside = try TemporaryFolder()
        let target = outside.url.appendingPathComponent("elsewhere")
        try FileManager.default.copyItem(at: site.url.appendingPathComponent(linked.target), to: target)
        let link = site.url.appendingPathComponent(linked.link)
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = runTomo(["build"], in: site.url)
        #expect(run.status == 1)
        #expect(run.error.contains("error: \(linked.link):1:1: this is a symbolic link to \(target.resolvingSymlinksInPath().path), outside the site"), "\(run.error)")
        #expect(SiteTree.files(in: site.url.appendingPathComponent("public")) == before)
    }
}

/// `tomo serve` holds links to the same rule as the build: it sees an edit of a link's target
/// inside the site (a file or a folder, under the link's name too when the target is watched
/// under its own), and shows the error of a link that leads out of the site.
@Suite(.serialized) struct ServeSymbolicLinkTests {
    /// `linked`'s site (the link inside it) served, once its page is: the site, the server and
    /// the page's address.
    static func served(_ linked: SymbolicLinkTests.Linked) throws -> (site: TemporaryFolder, server: ServedPreview, path: String) {
        let site = try SymbolicLinkTests.site(linked)
        try Unprivileged.handOver(site.url)
        let server = try ServedPreview(site: site.url)
        let path = "/" + linked.page.replacingOccurrences(of: "index.html", with: "")
        #expect(ServeWatchTests.eventually(server, path, holds: "Alice"), "\(server.errors)")
        return (site, server, path)
    }

    @Test(arguments: SymbolicLinkTests.cases) func anEditOfALinksTargetIsServed(linked: SymbolicLinkTests.Linked) throws {
        let (site, server, path) = try Self.served(linked)
        defer { server.stop() }
        let file = linked.edit.file
        try SymbolicLinkTests.write(linked.edit.text, to: site.url.appendingPathComponent(file.isEmpty ? linked.target : linked.target + "/" + file))
        #expect(ServeWatchTests.eventually(server, path, holds: linked.shows), "\(server.errors)")
    }

    /// `content/posts/alice` a link to a folder outside `content/`, which `static/photos` leads
    /// to too: watched under its own name, an edit there is seen under both names.
    @Test func aSecondNameOfAWatchedFolderSeesItsEdits() throws {
        let site = try SymbolicLinkTests.site(SymbolicLinkTests.cases[0])
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("static"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("static/photos").path, withDestinationPath: "../shared/alice")
        try Unprivileged.handOver(site.url)
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(ServeWatchTests.eventually(server, "/photos/sunset.md", holds: "First caption"), "\(server.errors)")
        try site.write("shared/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nShared caption\n")
        #expect(ServeWatchTests.eventually(server, "/alice/posts/sunset/", holds: "Shared caption"), "\(server.errors)")
        #expect(ServeWatchTests.eventually(server, "/photos/sunset.md", holds: "Shared caption"), "\(server.errors)")
    }

    /// A link that leads out of the site, there at the start or made while serving, is an error
    /// shown as the build shows it; what it leads to is never served.
    @Test(arguments: SymbolicLinkTests.cases) func aLinkLeavingTheSiteIsAnError(linked: SymbolicLinkTests.Linked) throws {
        let outside = try TemporaryFolder()
        let atStart = try SymbolicLinkTests.site(linked, targetRoot: outside.url)
        let message = "\(linked.link):1:1: this is a symbolic link to \(outside.url.appendingPathComponent(linked.target).resolvingSymlinksInPath().path), outside the site"
        try Unprivileged.handOver(atStart.url)
        let first = try ServedPreview(site: atStart.url)
        #expect(first.waitForError(containing: message), "\(first.errors)")
        // Killed, not interrupted: a Ctrl-C this early can come before tomo serve listens for it.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()

        let (site, server, _) = try Self.served(linked)
        defer { server.stop() }
        let link = site.url.appendingPathComponent(linked.link)
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside.url.appendingPathComponent(linked.target))
        #expect(server.waitForError(containing: message.replacingOccurrences(of: outside.url.path, with: outside.url.resolvingSymlinksInPath().path)), "\(server.errors)")
    }
}
