import Foundation
import Testing
import TomoTestSupport

/// A file the site no longer has that a build cannot delete from the output (a folder it may
/// not write in; here a read-only file system, which root cannot write in either): the build
/// fails saying so, rather than leaving it published and forgetting it made it, and the next
/// build once it can deletes it.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs (mount -t tmpfs)"))
struct UndeletableOutputTests {
    @Test func aPageABuildCannotDeleteFailsTheBuildAndTheNextBuildDeletesIt() throws {
        let site = try InterruptedUserCommandTests.site()
        #expect(runTomo(["build"], in: site.url).status == 0)
        // The post's page moved onto a file system of its own, which can be made read-only.
        let folder = site.url.appendingPathComponent("public/alice/posts/sunset")
        let saved = try TemporaryFolder()
        try FileManager.default.moveItem(at: folder, to: saved.url.appendingPathComponent("sunset"))
        try SmallDisk.mount(folder, kilobytes: 4096)
        defer { SmallDisk.unmount(folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: saved.url.appendingPathComponent("sunset").path) {
            try FileManager.default.copyItem(at: saved.url.appendingPathComponent("sunset/" + name), to: folder.appendingPathComponent(name))
        }
        let first = runTomo(["build"], in: site.url)
        #expect(first.status == 0, "\(first.error)")
        let page = folder.appendingPathComponent("index.html")
        #expect(FileManager.default.fileExists(atPath: page.path))
        #expect(runTomo(["post", "hide", "alice/sunset"], in: site.url).status == 0)
        try SmallDisk.remount(folder, writable: false)
        let refused = runTomo(["build"], in: site.url)
        #expect(refused.status == 1)
        #expect(refused.error.contains("cannot delete 1 file the site no longer has from the output: alice/posts/sunset/index.html (Read-only file system); until they go they stay published"), "\(refused.error)")
        try SmallDisk.remount(folder, writable: true)
        let again = runTomo(["build"], in: site.url)
        #expect(again.status == 0, "\(again.error)")
        #expect(!FileManager.default.fileExists(atPath: page.path))
        let output = fileTree(site.url.appendingPathComponent("public"))
        let full = try fullBuildOutput(of: site.url)
        #expect(output == full, "\(differences(output, full))")
    }
}
