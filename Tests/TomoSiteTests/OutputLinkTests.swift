import Foundation
import Synchronization
import Testing
import TomoCore
@testable import TomoSite
import TomoTestSupport

/// Symbolic links planted in or as the output folder: a build never deletes through one, and
/// one that leads nowhere is an error, not a build that waits for ever.
@Suite struct OutputLinkTests {
    /// A user's folder of the output replaced by a link to a folder elsewhere (holding a copy
    /// of the pages and a file of the person's own): deleting the user deletes nothing there,
    /// by an incremental build or a full one.
    @Test(arguments: [false, true]) func aFolderReplacedByALinkIsNotDeletedThrough(full: Bool) throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\n",
            "content/users/bob.yaml": "name: Bob\n",
        ])
        try site.build()
        let elsewhere = try TemporaryFolder(prefix: "tomo-elsewhere")
        let bob = site.output.appendingPathComponent("bob")
        let kept = elsewhere.url.appendingPathComponent("bob")
        try FileManager.default.copyItem(at: bob, to: kept)
        try "mine".write(to: kept.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let before = SiteFolder.files(in: kept)
        #expect(before["index.html"] != nil && before.count > 2)
        try FileManager.default.removeItem(at: bob)
        try FileManager.default.createSymbolicLink(at: bob, withDestinationURL: kept)
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/users/bob.yaml"))
        _ = try SiteBuilder.build(BuildOptions(site: site.root, full: full))
        #expect(SiteFolder.files(in: kept).keys.sorted() == before.keys.sorted(), "nothing of the folder the link leads to was deleted")
        #expect(site.page("alice/index.html")?.contains("Alice") == true)
    }

    /// The output folder a link to a folder that does not exist: the build says so and ends.
    @Test func anOutputThatLinksToNothingIsAnError() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n"])
        let nowhere = site.root.appendingPathComponent("nowhere/public")
        try FileManager.default.createSymbolicLink(at: site.output, withDestinationURL: nowhere)
        let ended = DispatchSemaphore(value: 0)
        let errors = Mutex<[String]?>(nil)
        let root = site.root
        Thread.detachNewThread {
            do throws(DiagnosticList) {
                _ = try SiteBuilder.build(BuildOptions(site: root))
                errors.withLock { $0 = [] }
            } catch {
                errors.withLock { $0 = error.diagnostics.map(\.description) }
            }
            ended.signal()
        }
        #expect(ended.wait(timeout: .now() + 60) == .success, "the build ended")
        let messages = errors.withLock { $0 } ?? []
        #expect(messages.count == 1 && messages.first?.contains("symbolic link to \(nowhere.path), which does not exist") == true, "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
    }

    /// An output inside `static/` (or reached from `static/` or `templates/` by a link) would
    /// be published into itself, one level deeper at each build: the build refuses it, leaves no
    /// folder behind, and builds again once the link is gone.
    @Test func anOutputThatIsAlsoAnInputIsRefused() throws {
        let site = try SiteFolder(["content/users/alice.yaml": "name: Alice\n", "static/robots.txt": "User-agent: *\n"])
        let inside = site.root.appendingPathComponent("static/out")
        #expect(throws: DiagnosticList.self) { try SiteBuilder.build(BuildOptions(site: site.root, output: inside)) }
        #expect(!FileManager.default.fileExists(atPath: inside.path), "the folder the build made is gone")
        try site.build()
        for folder in ["static", "templates"] {
            let link = site.root.appendingPathComponent(folder + "/pub")
            try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../public")
            let errors = site.buildErrors() ?? []
            #expect(errors.count == 1 && errors.first?.hasPrefix(folder + "/pub/:1:1: this folder is an output of tomo build") == true, "\(errors)")
            try FileManager.default.removeItem(at: link)
        }
        try site.build()
        #expect(site.page("robots.txt") != nil && site.page("pub/robots.txt") == nil)
    }
}
