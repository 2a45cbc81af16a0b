import Foundation
import Testing
import TomoTestSupport

/// After `tomo user rename`, builds keep the old addresses working: a redirect page at every old
/// path of a page the user has now, their feed at the old feed's path, and `/_redirects`; through
/// chains of renames, never in a loop, never over a handle someone holds again. Each build is
/// byte for byte a full build.
@Suite struct RenameRedirectTests {
    /// alice with three posts (a timeline of two pages), bob following her.
    func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\npageSize: 2\n")
        for handle in ["alice", "bob"] { try #require(runTomo(["user", "add", handle], in: site.url).status == 0) }
        for (index, slug) in ["sunset", "rain", "tram"].enumerated() {
            try site.copy(sampleJPEG, to: "content/posts/alice/\(slug).jpg")
            try site.write("content/posts/alice/\(slug).md", "---\nphoto: \(slug).jpg\ndate: 2026-05-0\(index + 1)\nalt: A photo\n---\n\(slug).\n")
        }
        try #require(runTomo(["follow", "bob", "alice"], in: site.url).status == 0)
        return site
    }

    /// Runs `command`, builds, and checks the build against a full one; the output.
    func after(_ command: [String], in site: TemporaryFolder) throws -> [String: Data] {
        let run = runTomo(command, in: site.url)
        try #require(run.status == 0, "\(command): \(run.error)")
        let build = runTomo(["build"], in: site.url)
        try #require(build.status == 0, "\(build.error)")
        let output = fileTree(site.url.appendingPathComponent("public"))
        let full = try fullBuildOutput(of: site.url)
        #expect(differences(output, full).isEmpty, "\(command): the build differs from a full build at \(differences(output, full))")
        return output
    }

    static func text(_ data: Data?) -> String { String(decoding: data ?? Data(), as: UTF8.self) }

    /// Where the page at `path` sends readers (relative to the site), or nil when it is a page of its own.
    static func target(of path: String, in output: [String: Data]) -> String? {
        let html = text(output[path])
        guard let refresh = html.firstMatch(of: /<meta http-equiv="refresh" content="0; url=\/([^"]*)">/) else { return nil }
        let target = String(refresh.1)
        #expect(html.contains("<link rel=\"canonical\" href=\"https://example.com/\(target)\">"), "\(path)")
        #expect(html.contains("<meta name=\"robots\" content=\"noindex\">"), "\(path)")
        #expect(html.contains("<a href=\"/\(target)\">https://example.com/\(target)</a>"), "\(path)")
        return target
    }

    /// Every page of `new` (each `index.html` under `new/`) has a redirect at `old`'s path to it.
    static func expectRedirects(from old: String, to new: String, in output: [String: Data]) {
        let pages = output.keys.filter { $0.hasPrefix(new + "/") && $0.hasSuffix("index.html") }.sorted()
        #expect(pages.count >= 7, "profile, 3 posts, followers, following, 2 timeline pages: \(pages)")
        for page in pages {
            let place = page.dropFirst(new.count + 1).dropLast("index.html".count)
            #expect(target(of: "\(old)/\(place)index.html", in: output) == "\(new)/\(place)", "\(old)/\(place)")
        }
        #expect(output["\(old)/feed.xml"] != nil && output["\(old)/feed.xml"] == output["\(new)/feed.xml"], "\(old)'s feed is \(new)'s")
        // Nothing else is left at the old handle.
        #expect(output.keys.filter { $0.hasPrefix(old + "/") }.count == pages.count + 1)
    }

    @Test func everyOldAddressLeadsToTheSamePageUnderTheNewHandle() throws {
        let site = try site()
        _ = try after(["build"], in: site)
        let output = try after(["user", "rename", "alice", "ann"], in: site)
        Self.expectRedirects(from: "alice", to: "ann", in: output)
        #expect(Self.target(of: "ann/index.html", in: output) == nil)
        #expect(Self.text(output["_redirects"]) == "/alice /ann/ 301\n/alice/* /ann/:splat 301\n")
        // Search engines are pointed at the new pages only.
        #expect(!Self.text(output["sitemap.xml"]).contains("/alice"))
        #expect(Self.text(output["sitemap.xml"]).contains("https://example.com/ann/posts/sunset/"))
        // A site without renames has no _redirects.
        #expect(try after(["build"], in: self.site())["_redirects"] == nil)
    }

    @Test func aSitesOwnRedirectRulesComeFirstAndTheRenamesFollowThem() throws {
        let site = try site()
        // Without renames the site's own file is published as it is; its last line has no line end.
        try site.write("static/_redirects", "/blog/* https://blog.example.com/:splat 301")
        #expect(Self.text(try after(["build"], in: site)["_redirects"]) == "/blog/* https://blog.example.com/:splat 301")
        var output = try after(["user", "rename", "alice", "ann"], in: site)
        #expect(Self.text(output["_redirects"]) == "/blog/* https://blog.example.com/:splat 301\n/alice /ann/ 301\n/alice/* /ann/:splat 301\n")
        // An edit of the site's own rules reaches the combined file; without them only tomo's stay.
        try site.write("static/_redirects", "/old /new/ 302\n")
        output = try after(["build"], in: site)
        #expect(Self.text(output["_redirects"]) == "/old /new/ 302\n/alice /ann/ 301\n/alice/* /ann/:splat 301\n")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("static/_redirects"))
        output = try after(["build"], in: site)
        #expect(Self.text(output["_redirects"]) == "/alice /ann/ 301\n/alice/* /ann/:splat 301\n")
    }

    /// The last rename's end (its user removed) takes its lines out of the site's own file,
    /// in an incremental build as in a full one.
    @Test func whenNoRenameIsLeftTheSitesOwnRulesArePublishedAsTheyAre() throws {
        let site = try site()
        try site.write("static/_redirects", "/old /new/ 302")
        _ = try after(["user", "rename", "alice", "ann"], in: site)
        let output = try after(["user", "rm", "ann", "--yes"], in: site)
        #expect(Self.text(output["_redirects"]) == "/old /new/ 302")
    }

    @Test func chainsEndAtTheCurrentHandleAndARenameBackOrANewUserEndsTheRedirects() throws {
        let site = try site()
        _ = try after(["user", "rename", "alice", "ann"], in: site)
        var output = try after(["user", "rename", "ann", "amy"], in: site)
        Self.expectRedirects(from: "alice", to: "amy", in: output)
        Self.expectRedirects(from: "ann", to: "amy", in: output)

        // Back to the first handle: alice's pages are hers again, the others lead to them.
        output = try after(["user", "rename", "amy", "alice"], in: site)
        #expect(Self.target(of: "alice/index.html", in: output) == nil)
        Self.expectRedirects(from: "ann", to: "alice", in: output)
        Self.expectRedirects(from: "amy", to: "alice", in: output)
        #expect(Self.text(output["_redirects"]) == "/amy /alice/ 301\n/ann /alice/ 301\n/amy/* /alice/:splat 301\n/ann/* /alice/:splat 301\n")
        // No page anywhere sends readers to itself.
        for path in output.keys where path.hasSuffix("index.html") {
            #expect(Self.target(of: path, in: output).map { $0 + "index.html" } != path, "\(path)")
        }

        // A new user takes ann: ann's pages are theirs, with no collision and no error.
        output = try after(["user", "add", "ann"], in: site)
        #expect(Self.target(of: "ann/index.html", in: output) == nil)
        #expect(output["ann/posts/sunset/index.html"] == nil)
        #expect(Self.text(output["_redirects"]) == "/amy /alice/ 301\n/amy/* /alice/:splat 301\n")

        // Removing the user removes the redirects to them.
        output = try after(["user", "rm", "alice", "--yes"], in: site)
        #expect(output["_redirects"] == nil && output["amy/index.html"] == nil)
    }
}
