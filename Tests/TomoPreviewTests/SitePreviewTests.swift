import Foundation
import Testing
@testable import TomoPreview
import TomoTestSupport

@Suite(.serialized) final class SitePreviewTests {
    private let folder: TemporaryFolder
    var site: URL { folder.url }

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-preview")
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

    /// A live-reload event stream, read past its opening `retry:` line.
    func openEvents(_ port: UInt16) throws -> RawHTTPConnection {
        let events = try RawHTTPConnection(port: port)
        try events.send("GET", "/_tomo/events")
        _ = try events.readStream(until: "retry:")
        return events
    }

    @Test func servesTheSiteWithTheReloadScriptAndReloadsAfterAnEdit() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let page = try fetch(port, "/alice/")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<script src="/_tomo/reload.js" defer></script></body>"#))
        #expect(page.text.contains("<h1 class=\"name p-name\" dir=\"auto\">Alice</h1>"))

        let events = try openEvents(port)
        try write("content/users/alice.yaml", "name: Alice Edited\n")
        #expect(try events.readStream(until: "event: reload").contains("event: reload"))
        #expect(try fetch(port, "/alice/").text.contains("Alice Edited"))
    }

    @Test func aStylesheetEditSwapsStylesheetsWithoutAReload() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let events = try openEvents(port)
        try write("templates/static/extra.css", "a{color:red}\n")
        let stream = try events.readStream(until: "event: css")
        #expect(stream.contains("event: css"))
        #expect(!stream.contains("event: reload"))
    }

    @Test func aBrokenFileShowsTheErrorKeepsTheLastGoodSiteAndRecovers() throws {
        let (preview, port) = try start()
        defer { preview.stop() }
        let events = try openEvents(port)
        try write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: x\n    color: pruple\n")
        _ = try events.readStream(until: "event: error")
        let error = try events.readStream(until: "\n\n")
        #expect(error.contains(#"content/users/alice.yaml:4:12: unknown colour \"pruple\" (did you mean \"purple\"?)"#))
        #expect(try fetch(port, "/alice/").text.contains("<h1 class=\"name p-name\" dir=\"auto\">Alice</h1>"))
        try write("content/users/alice.yaml", "name: Alice Fixed\n")
        let recovered = try events.readStream(until: "event: reload")
        #expect(recovered.contains("event: clear"))
        #expect(try fetch(port, "/alice/").text.contains("Alice Fixed"))
    }

    @Test func aRestartServesTheLastPreviewWhileItBuildsThenTheNewSite() throws {
        let (first, _) = try start()
        first.stop()
        try write("content/users/alice.yaml", "name: Alice Edited\n")
        var options = SitePreview.Options(site: site)
        options.port = 0
        let kept = KeptView()
        let preview = try SitePreview.start(options) { event in
            // The first build waits for this handler: what it fetches is what was kept.
            guard case .servingKept(_, let url) = event else { return }
            let port = UInt16(url.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
            let page = (try? fetch(port, "/alice/").text) ?? ""
            kept.page = page
            let events = try? RawHTTPConnection(port: port)
            try? events?.send("GET", "/_tomo/events")
            _ = try? events?.readStream(until: "retry:")
            kept.events = events
        }
        defer { preview.stop() }
        let page = try #require(kept.page)
        #expect(page.contains("<h1 class=\"name p-name\" dir=\"auto\">Alice</h1>"))
        // Pages opened from the kept site reload once the build changed them.
        #expect(try #require(kept.events).readStream(until: "event: reload").contains("event: reload"))
        let port = UInt16(preview.url.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
        #expect(try fetch(port, "/alice/").text.contains("Alice Edited"))
    }

    @Test func withoutLiveReloadPagesAreServedAsBuilt() throws {
        let (preview, port) = try start(liveReload: false)
        defer { preview.stop() }
        #expect(!(try fetch(port, "/alice/")).text.contains("reload.js"))
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

/// What a test saw while the preview served the kept site (set on the starting thread, before
/// `start` returns).
private final class KeptView: @unchecked Sendable {
    var page: String?
    var events: RawHTTPConnection?
}
