import Testing
import TomoServer
import TomoTestSupport

/// Every response the server makes carries `X-Content-Type-Options: nosniff`, once, whatever the
/// status and whichever code path answered.
@Suite struct SecurityHeaderTests {
    struct Probe: Sendable, CustomTestStringConvertible {
        var status: Int
        var what: String
        /// The raw request, `PORT` standing for the server's port.
        var request: String
        /// A HEAD request: the reply has no body.
        var bodyless = false
        /// An event stream: only its head is read.
        var streams = false
        var site = sampleSite

        var testDescription: String { "\(status) \(what)" }
    }

    static func get(_ target: String, host: String = "127.0.0.1:PORT", _ headers: [String] = []) -> String {
        (["GET \(target) HTTP/1.1", "Host: \(host)"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
    }

    static let probes = [
        Probe(status: 200, what: "a page", request: get("/alice/")),
        Probe(status: 200, what: "a gzipped page", request: get("/alice/", ["Accept-Encoding: gzip"])),
        Probe(status: 200, what: "HEAD of a page", request: "HEAD /alice/ HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", bodyless: true),
        Probe(status: 200, what: "an image", request: get("/media/a.png")),
        Probe(status: 200, what: "the reload script", request: get("/_tomo/reload.js")),
        Probe(status: 200, what: "the event stream", request: get("/_tomo/events"), streams: true),
        Probe(status: 200, what: "HTTP/1.0 without Host", request: "GET / HTTP/1.0\r\n\r\n"),
        Probe(status: 301, what: "a folder without its slash", request: get("/alice?tab=posts")),
        Probe(status: 304, what: "a page the client has", request: get("/alice/", ["If-None-Match: *"])),
        Probe(status: 400, what: "a traversal", request: get("/%2e%2e/etc/passwd")),
        Probe(status: 400, what: "HTTP/1.1 without Host", request: "GET / HTTP/1.1\r\n\r\n"),
        Probe(status: 400, what: "two Hosts", request: get("/", ["Host: evil.example"])),
        Probe(status: 400, what: "a malformed Host", request: get("/", host: "local host")),
        Probe(status: 400, what: "two Content-Lengths", request: get("/", ["Content-Length: 0", "Content-Length: 9"])),
        Probe(status: 400, what: "Content-Length and Transfer-Encoding",
              request: get("/", ["Content-Length: 0", "Transfer-Encoding: chunked"])),
        Probe(status: 404, what: "the site's not-found page", request: get("/nobody/")),
        Probe(status: 404, what: "the plain not-found text", request: get("/nobody/"),
              site: ServedSite(files: ["index.html": Array("home".utf8)])),
        Probe(status: 405, what: "a POST", request: "POST / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nContent-Length: 2\r\n\r\nab"),
        Probe(status: 414, what: "a long target", request: get("/" + String(repeating: "a", count: 9000))),
        Probe(status: 421, what: "another host", request: get("/alice/", host: "evil.example:PORT")),
        Probe(status: 421, what: "the event stream for another host", request: get("/_tomo/events", host: "evil.example:PORT")),
    ]

    @Test(arguments: probes)
    func everyResponseSaysNosniff(probe: Probe) throws {
        try withServer(site: probe.site) { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.sendRaw(withPort(probe.request, of: server))
            let reply = probe.streams ? try connection.readHead() : try connection.readReply(bodyless: probe.bodyless)
            #expect(reply.status == probe.status)
            let lines = reply.headerLines.filter { $0.lowercased().hasPrefix("x-content-type-options:") }
            #expect(lines == ["X-Content-Type-Options: nosniff"])
        }
    }
}
