import Foundation
import Synchronization
import Testing
import TomoTestSupport

/// `tomo serve` sees every change the build would read: a folder it cannot watch is reported
/// and watched once it can be, and a templates/ folder made after the start is watched too.
@Suite(.serialized) struct ServeWatchTests {
    static let photo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    static func site() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        try folder.write("content/users/alice.yaml", "name: Alice\n")
        try folder.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nFirst caption\n")
        try folder.copy(photo, to: "content/posts/alice/sunset.jpg")
        try Unprivileged.handOver(folder.url)
        return folder
    }

    /// Fetches `path` until its body holds `text` (or 20 s pass).
    static func eventually(_ server: ServedPreview, _ path: String, holds text: String) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let reply = try? fetch(server.port, path), reply.status == 200, reply.body.firstRange(of: Array(text.utf8)) != nil { return true }
            usleep(50_000)
        }
        return false
    }

    @Test func aFolderThatCannotBeWatchedIsReportedAndWatchedOnceItCanBe() throws {
        let site = try Self.site()
        let posts = site.url.appendingPathComponent("content/posts/alice")
        #expect(chmod(posts.path, 0) == 0)
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(server.waitForError(containing: "content/posts/alice/: cannot watch this folder (Permission denied)"), "\(server.errors)")
        #expect(chmod(posts.path, 0o755) == 0)
        #expect(Self.eventually(server, "/alice/posts/sunset/", holds: "First caption"), "\(server.errors)")
        // Watched now: an edit inside it is seen.
        try Data("---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nSecond caption\n".utf8)
            .write(to: posts.appendingPathComponent("sunset.md"))
        #expect(Self.eventually(server, "/alice/posts/sunset/", holds: "Second caption"), "\(server.errors)")
    }

    @Test func aTemplatesFolderMadeAfterTheStartIsWatched() throws {
        let site = try Self.site()
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(Self.eventually(server, "/alice/", holds: "Alice"))
        try site.write("templates/profile.mustache", "<p>made later: {{user.name}}</p>")
        #expect(Self.eventually(server, "/alice/", holds: "made later: Alice"), "\(server.errors)")
        try site.write("templates/profile.mustache", "<p>edited: {{user.name}}</p>")
        #expect(Self.eventually(server, "/alice/", holds: "edited: Alice"), "\(server.errors)")
    }

    /// `tomo theme eject` while serving makes templates/: an edit of the ejected template is
    /// served, and deleting the folder serves the built-in theme again, as does moving it back in.
    @Test func anEjectedThemeIsServedAndDeletingItReturnsToTheBuiltInOne() throws {
        let site = try Self.site()
        let aside = try TemporaryFolder()
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(Self.eventually(server, "/alice/", holds: "<html"))
        #expect(runTomo(["theme", "eject", "profile"], in: site.url).status == 0)
        try site.write("templates/profile.mustache", "<p>ejected and edited: {{user.name}}</p>")
        #expect(Self.eventually(server, "/alice/", holds: "ejected and edited: Alice"), "\(server.errors)")
        let templates = site.url.appendingPathComponent("templates")
        try FileManager.default.moveItem(at: templates, to: aside.url.appendingPathComponent("templates"))
        #expect(Self.eventually(server, "/alice/", holds: "<html"), "\(server.errors)")
        try FileManager.default.moveItem(at: aside.url.appendingPathComponent("templates"), to: templates)
        #expect(Self.eventually(server, "/alice/", holds: "ejected and edited: Alice"), "\(server.errors)")
        try FileManager.default.removeItem(at: templates)
        #expect(Self.eventually(server, "/alice/", holds: "<html"), "\(server.errors)")
    }

    /// Folders made after the start, and a folder moved in with its files, are served.
    @Test func foldersMadeOrMovedInAfterTheStartAreServed() throws {
        let site = try Self.site()
        let aside = try TemporaryFolder()
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(Self.eventually(server, "/alice/", holds: "Alice"))
        try site.write("templates/static/extra.css", "p { color: teal }")
        #expect(Self.eventually(server, "/static/extra.css", holds: "teal"), "\(server.errors)")
        try site.write("content/pages/about.md", "---\ntitle: About us\n---\nHello\n")
        #expect(Self.eventually(server, "/about/", holds: "About us"), "\(server.errors)")
        try site.write("content/users/bob.yaml", "name: Bob\n")
        try aside.write("bob/dusk.md", "---\nphoto: dusk.jpg\ndate: 2026-05-02\nalt: Dusk\n---\nMoved in\n")
        try aside.copy(Self.photo, to: "bob/dusk.jpg")
        try Unprivileged.handOver(aside.url)
        try FileManager.default.moveItem(at: aside.url.appendingPathComponent("bob"), to: site.url.appendingPathComponent("content/posts/bob"))
        #expect(Self.eventually(server, "/bob/posts/dusk/", holds: "Moved in"), "\(server.errors)")
    }
}

/// The real `tomo serve --no-reload`, without privileges (see `Unprivileged`), on a free
/// loopback port; what it prints on standard error is kept.
final class ServedPreview: Sendable {
    let process = Process()
    let port: UInt16
    private let log = Log()

    final class Log: Sendable {
        let text = Mutex("")

        /// A pipe whose reading end appends to the text whatever comes, as it comes, until the
        /// last writer closes it.
        ///
        /// A thread of its own reads it, blocking in `read`: not `readabilityHandler`, whose
        /// dispatch read source, set up and torn down by many tests at once, crashed libdispatch's
        /// event loop (a use after free in its epoll bookkeeping, swift-corelibs-libdispatch#949).
        func pipe() -> Pipe {
            let pipe = Pipe()
            // The thread holds the pipe, so its descriptor stays open (not reused) while it reads.
            let reader = Thread {
                let descriptor = pipe.fileHandleForReading.fileDescriptor
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return }
                    self.text.withLock { $0 += String(decoding: buffer[..<count], as: UTF8.self) }
                }
            }
            reader.name = "tomo serve log reader"
            reader.start()
            return pipe
        }
    }

    var errors: String { log.text.withLock { $0 } }

    init(site: URL) throws {
        port = try freeLoopbackPort()
        let (executable, arguments) = try Unprivileged.command(["serve", "--no-reload", "--port", String(port)])
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = site
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log.pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while (try? fetch(port, "/"))?.status != 200, Date() < deadline { usleep(50_000) }
    }

    func waitForError(containing text: String) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if errors.contains(text) { return true }
            usleep(50_000)
        }
        return false
    }

    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }
}
