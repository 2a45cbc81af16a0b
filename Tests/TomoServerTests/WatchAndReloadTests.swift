import Foundation
import Testing
import TomoServer
import TomoTestSupport

/// The loop `tomo serve` builds from these parts: a saved file → a watcher batch → a publish →
/// a `reload` (or `css`) event on an open page's stream.
@Suite struct WatchAndReloadTests {
    @Test func aSavedFileReachesOpenPagesAsAReloadEvent() throws {
        let temporary = try TemporaryFolder(prefix: "tomo-loop")
        let folder = temporary.url
        try withServer { server throws in
            // Stands in for the rebuild: each watched file becomes a page or a stylesheet.
            let watcher = try FileWatcher(folders: [folder], debounce: .milliseconds(20)) { _ in
                var site = sampleSite
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                    site.files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { [UInt8]($0) }
                }
                if let kind = server.publish(site.withReloadScript()).reloadKind { server.notifyReload(kind) }
            }
            defer { watcher.stop() }
            let stream = try RawHTTPConnection(port: server.port)
            try stream.send("GET", "/_tomo/events")
            _ = try stream.readStream(until: "retry: 1000\n\n")

            try Data("<body>v1</body>".utf8).write(to: folder.appendingPathComponent("page.html"))
            #expect(try stream.readStream(until: "\n\n").contains("event: reload"))
            let page = try fetch(server.port, "/page.html")
            #expect(page.text == "<body>v1\(ReloadClient.scriptTag)</body>")

            try Data("p { color: red }".utf8).write(to: folder.appendingPathComponent("extra.css"))
            #expect(try stream.readStream(until: "\n\n").contains("event: css"))
        }
    }
}
