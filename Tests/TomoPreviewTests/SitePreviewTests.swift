import Foundation
import Synchronization
import Testing
@testable import TomoPreview

@Suite(.serialized) final class SitePreviewTests {
    let site: URL

    deinit {
        try? FileManager.default.removeItem(at: site)
    }

    init() throws {
        site = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-preview-\(UUID().uuidString)")
        try write("content/site.yaml", "title: Preview\nbaseURL: https://example.com/\n")
        try write("content/users/alice.yaml", "name: Alice\n")
        try write("templates/static/extra.css", "a{}\n")
    }

    func write(_ path: String, _ text: String) throws {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // As editors do: a new file renamed over the old one.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        try Data(text.utf8).write(to: temporary)
        _ = rename(temporary.path, url.path)
    }

    func start(liveReload: Bool = true) throws -> (SitePreview, UInt16) {
        var options = SitePreview.Options(site: site)
        options.port = 0
        options.liveReload = liveReload
        let preview = try SitePreview.start(options) { _ in }
        let port = UInt16(preview.url.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
        return (preview, port)
    }

    @Test func servesTheSiteWithTheReloadScriptAndReloadsAfterAnEdit() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let page = try HTTPTestClient.get("/alice/", port: port)
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains(#"<script src="/_tomo/reload.js" defer></script></body>"#))
        #expect(page.contains("<h1 class=\"name\">Alice</h1>"))

        let events = try HTTPTestClient(port: port)
        events.send("GET /_tomo/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        events.read(until: "retry:")
        try write("content/users/alice.yaml", "name: Alice Edited\n")
        #expect(events.read(until: "event: reload").contains("event: reload"))
        #expect(try HTTPTestClient.get("/alice/", port: port).contains("Alice Edited"))
    }

    @Test func aStylesheetEditSwapsStylesheetsWithoutAReload() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let events = try HTTPTestClient(port: port)
        events.send("GET /_tomo/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        events.read(until: "retry:")
        try write("templates/static/extra.css", "a{color:red}\n")
        let stream = events.read(until: "event: css")
        #expect(stream.contains("event: css"))
        #expect(!stream.contains("event: reload"))
    }

    @Test func aBrokenFileShowsTheErrorKeepsTheLastGoodSiteAndRecovers() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let events = try HTTPTestClient(port: port)
        events.send("GET /_tomo/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        events.read(until: "retry:")
        try write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: x\n    color: pruple\n")
        let error = events.read(until: "event: error")
        #expect(error.contains(#"content/users/alice.yaml:4:12: unknown colour \"pruple\" (did you mean \"purple\"?)"#))
        #expect(try HTTPTestClient.get("/alice/", port: port).contains("<h1 class=\"name\">Alice</h1>"))
        events.reset()
        try write("content/users/alice.yaml", "name: Alice Fixed\n")
        let recovered = events.read(until: "event: reload")
        #expect(recovered.contains("event: clear"))
        #expect(try HTTPTestClient.get("/alice/", port: port).contains("Alice Fixed"))
    }

    @Test func withoutLiveReloadPagesAreServedAsBuilt() throws {
        let (preview, port) = try start(liveReload: false)
        defer { preview.stop() }
        #expect(!(try HTTPTestClient.get("/alice/", port: port)).contains("reload.js"))
    }

    @Test func ignoresHiddenFilesAndEditorBackups() {
        let root = URL(fileURLWithPath: "/site")
        #expect(SitePreview.sitePath(of: URL(fileURLWithPath: "/site/content/users/alice.yaml"), in: root) == "content/users/alice.yaml")
        #expect(SitePreview.sitePath(of: URL(fileURLWithPath: "/site/content/.store.lock"), in: root) == nil)
        #expect(SitePreview.sitePath(of: URL(fileURLWithPath: "/site/content/users/.alice.yaml.swp"), in: root) == nil)
        #expect(SitePreview.sitePath(of: URL(fileURLWithPath: "/site/content/users/alice.yaml~"), in: root) == nil)
        #expect(SitePreview.sitePath(of: URL(fileURLWithPath: "/elsewhere/x"), in: root) == nil)
    }
}
