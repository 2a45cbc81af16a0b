import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// A handle whose address something else of the site has: a free page of that name, or a
/// root file tomo makes itself. The commands refuse it before anything is written, so that the
/// site still builds.
@Suite struct HandleClashTests {
    func site() throws -> TemporaryFolder {
        try TemporaryFolder([
            "content/site.yaml": "title: Test\nbaseURL: https://example.com/\n",
            "content/pages/about.md": "---\ntitle: About\n---\nAbout this site.\n",
        ])
    }

    /// The handles of the users the store has.
    func registered(in site: TemporaryFolder) throws -> [String] {
        let listed = runTomo(["user", "list", "--json"], in: site.url)
        return try JSONParser.parse(listed.output, file: "user list --json").arrayValue?.compactMap { $0["handle"]?.stringValue } ?? []
    }

    @Test func aUserNamedLikeAFreePageIsRefused() throws {
        let site = try site()
        let added = runTomo(["user", "add", "about"], in: site.url)
        #expect(added.status != 0)
        #expect(added.error.contains("content/pages/about.md is the page at /about/: about is taken"), "\(added.error)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("content/users/about.yaml").path))
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        let renamed = runTomo(["user", "rename", "alice", "about"], in: site.url)
        #expect(renamed.status != 0 && renamed.error.contains("about is taken"), "\(renamed.error)")
        #expect(try registered(in: site) == ["alice"])
        #expect(runTomo(["build"], in: site.url).status == 0)
    }

    @Test func theRedirectRulesNameIsNoHandle() throws {
        let site = try site()
        let added = runTomo(["user", "add", "_redirects"], in: site.url)
        #expect(added.status != 0 && added.error.contains("\"_redirects\" is reserved"), "\(added.error)")
        try site.write("content/users/_redirects.yaml", "name: Rules\n")
        let checked = runTomo(["check"], in: site.url)
        #expect(checked.status != 0 && checked.error.contains("_redirects"), "\(checked.output) \(checked.error)")
    }
}
