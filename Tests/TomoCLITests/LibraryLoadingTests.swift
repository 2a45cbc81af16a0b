import Foundation
import Testing
import TomoTestSupport

/// libvips, with the hundred libraries it needs, is opened when an image is first made, not
/// when tomo starts: a command that makes no image starts in a third of the time.
@Suite struct LibraryLoadingTests {
    /// Runs the real binary with the dynamic loader telling (on stderr) every library it opens.
    static func runTellingLibraries(_ arguments: [String], in directory: URL) throws -> (status: Int32, libraries: String) {
        let run = try runProcess(tomoBinary(), arguments, in: directory, environment: ["LD_DEBUG": "files"])
        return (run.status, run.error)
    }

    @Test func aCommandThatMakesNoImageNeverOpensLibvips() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\n"])
        for arguments in [["--version"], ["user", "add", "alice"], ["user", "add", "bob"], ["follow", "alice", "bob"], ["user", "list"]] {
            let run = try Self.runTellingLibraries(arguments, in: site.url)
            #expect(run.status == 0, "tomo \(arguments.joined(separator: " ")) failed")
            // The loader names what it opens (`file=libc.so.6`): proof that it told at all.
            #expect(run.libraries.contains("file=libc.so.6"), "LD_DEBUG told nothing for \(arguments)")
            #expect(!run.libraries.contains("libvips"), "tomo \(arguments.joined(separator: " ")) opened libvips")
        }
    }

    @Test func aBuildThatMakesThumbnailsOpensLibvipsThroughTheShim() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n",
        ])
        try site.copy(sampleJPEG, to: "content/users/alice/icon.jpg")
        let run = try Self.runTellingLibraries(["build"], in: site.url)
        #expect(run.status == 0)
        #expect(run.libraries.contains("file=libvips.so"), "the build did not open libvips")
        let media = fileTree(site.url.appendingPathComponent("public/media/alice"))
        #expect(media.keys.contains { $0.hasSuffix(".webp") }, "no WebP thumbnail in \(media.keys.sorted())")
        #expect(media.keys.contains { $0.hasSuffix(".jpg") }, "no JPEG thumbnail in \(media.keys.sorted())")
    }
}
