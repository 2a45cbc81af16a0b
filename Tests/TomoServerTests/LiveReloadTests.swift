import Testing
import TomoServer
import TomoTestSupport

@Suite struct LiveReloadTests {
    @Test func streamsReloadCSSErrorAndClearEvents() throws {
        try withServer { server throws in
            let stream = try openEvents(server)
            server.notifyReload(.page)
            #expect(try stream.readStream(until: "\n\n").contains("event: reload\n"))
            server.notifyReload(.css)
            #expect(try stream.readStream(until: "\n\n").contains("event: css\n"))
            server.showError("content/users/bob.yaml:3:7: unknown colour \"pruple\"\nsecond line")
            let error = try stream.readStream(until: "\n\n")
            #expect(error.contains("event: error\ndata: \"content/users/bob.yaml:3:7: unknown colour \\\"pruple\\\"\\nsecond line\"\n"))
            server.showError(nil)
            #expect(try stream.readStream(until: "\n\n").contains("event: clear\n"))
        }
    }

    @Test func showsTheCurrentErrorToStreamsOpenedLater() throws {
        try withServer { server throws in
            server.showError("broken")
            let stream = try openEvents(server)
            #expect(try stream.readStream(until: "\n\n").contains("event: error\ndata: \"broken\"\n"))
        }
    }

    @Test func servesOtherRequestsWhileStreamsAreOpen() throws {
        try withServer { server throws in
            let streams = try (0..<3).map { _ in try openEvents(server) }
            #expect(try fetch(server.port, "/alice/").status == 200)
            #expect(server.openEventStreamCount == 3)
            server.notifyReload(.page)
            for stream in streams {
                #expect(try stream.readStream(until: "event: reload").contains("event: reload"))
            }
        }
    }

    @Test func sendsHeartbeatsOnQuietStreams() throws {
        try withServer(configure: { $0.heartbeatInterval = .milliseconds(50) }) { server throws in
            let stream = try openEvents(server)
            #expect(try stream.readStream(until: ": heartbeat\n\n").contains("heartbeat"))
        }
    }

    @Test func stopEndsOpenStreams() throws {
        var configuration = PreviewServer.Configuration()
        configuration.port = 0
        let server = try PreviewServer.start(configuration, site: sampleSite)
        let stream = try openEvents(server)
        server.stop()
        _ = try? stream.readStream(until: "never arrives")
        #expect(stream.isClosedByServer())
    }

    @Test func servesTheClientScript() throws {
        try withServer { server throws in
            let reply = try fetch(server.port, "/_tomo/reload.js")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(reply.text.contains("new EventSource(\"/_tomo/events\")"))
        }
    }

    @Test func leavesReloadPathsToTheSiteWhenReloadIsOff() throws {
        try withServer(configure: { $0.liveReload = false }) { server throws in
            #expect(try fetch(server.port, "/_tomo/reload.js").status == 404)
            #expect(try fetch(server.port, "/_tomo/events").status == 404)
        }
    }

    @Test func injectsTheScriptBeforeTheLastClosingBody() {
        let page = Array("<html><body><p>x</p></BODY></html>".utf8)
        let injected = String(decoding: injectReloadScript(into: page), as: UTF8.self)
        #expect(injected == "<html><body><p>x</p><script src=\"/_tomo/reload.js\" defer></script></BODY></html>")
        let bare = String(decoding: injectReloadScript(into: Array("<p>x".utf8)), as: UTF8.self)
        #expect(bare == "<p>x<script src=\"/_tomo/reload.js\" defer></script>")
    }

    /// Opens `/_tomo/events` and reads past the response headers.
    private func openEvents(_ server: PreviewServer) throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET", "/_tomo/events", headers: ["Accept: text/event-stream"])
        let head = try connection.readStream(until: "\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.lowercased().contains("content-type: text/event-stream"))
        #expect(head.lowercased().contains("cache-control: no-cache"))
        // Every stream starts by setting EventSource's reconnect delay.
        #expect(try connection.readStream(until: "\n\n").contains("retry: 1000\n"))
        return connection
    }
}

@Suite struct SiteChangesTests {
    @Test func publishReportsWhatChangedAndHowPagesShouldUpdate() throws {
        try withServer { server throws in
            #expect(server.publish(sampleSite) == SiteChanges(paths: []))
            #expect(server.publish(sampleSite).reloadKind == nil)

            var cssOnly = sampleSite
            cssOnly.files["static/style.css"] = Array("body { color: red }".utf8)
            let cssChanges = server.publish(cssOnly)
            #expect(cssChanges.paths == ["static/style.css"])
            #expect(cssChanges.reloadKind == .css)

            var pages = cssOnly
            pages.files["bob/index.html"] = Array("bob".utf8)
            pages.files["robots.txt"] = nil
            let pageChanges = server.publish(pages)
            #expect(pageChanges.paths == ["bob/index.html", "robots.txt"])
            #expect(pageChanges.reloadKind == .page)
        }
    }

    @Test func addsTheReloadScriptToHTMLPagesOnly() {
        let site = ServedSite(files: ["a/index.html": Array("<body></body>".utf8), "b.css": Array("x".utf8)])
            .withReloadScript()
        #expect(site.files["a/index.html"] == Array("<body>\(ReloadClient.scriptTag)</body>".utf8))
        #expect(site.files["b.css"] == Array("x".utf8))
    }
}
