import Foundation
import TomoServer

/// A small site with every kind of file a build writes.
let sampleSite = ServedSite(files: [
    "index.html": Array("<!doctype html><title>Home</title><body><h1>Home</h1></body>".utf8),
    "alice/index.html": Array(("<!doctype html><title>Alice</title><body>" + String(repeating: "<p>Photographer in Tokyo.</p>", count: 40) + "</body>").utf8),
    "alice/feed.xml": Array("<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>".utf8),
    "feed.xml": Array("<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>".utf8),
    "sitemap.xml": Array("<?xml version=\"1.0\"?><urlset></urlset>".utf8),
    "search.json": Array("[]".utf8),
    "static/style.css": Array("body { color: black }".utf8),
    "static/app.js": Array("console.log(1)".utf8),
    "static/icon.svg": Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8),
    "static/site.webmanifest": Array("{}".utf8),
    "static/font.woff2": [0x77, 0x4F, 0x46, 0x32],
    "static/font.woff": [0x77, 0x4F, 0x46, 0x46],
    "favicon.ico": [0, 0, 1, 0],
    "robots.txt": Array("User-agent: *".utf8),
    "media/a.png": [0x89, 0x50, 0x4E, 0x47],
    "media/b.jpg": [0xFF, 0xD8, 0xFF],
    "media/c.jpeg": [0xFF, 0xD8, 0xFF],
    "media/d.webp": Array("RIFF".utf8),
    "media/e.gif": Array("GIF89a".utf8),
    "media/f.avif": [0, 0, 0, 0x20],
    "media/G.JPG": [0xFF, 0xD8, 0xFF],
    "static/Notes.Txt": Array("notes".utf8),
    "static/no-extension": Array("bytes".utf8),
    "static/.hidden": Array("bytes".utf8),
    "static/a.b/c": Array("bytes".utf8),
    "static/feed.xml.bak": Array("bytes".utf8),
    "404.html": Array("<!doctype html><title>Not found</title><body>Nothing here</body>".utf8),
])

/// Starts a server on a free port, runs `body`, and always stops the server.
func withServer<T>(site: ServedSite = sampleSite,
                   configure: (inout PreviewServer.Configuration) -> Void = { _ in },
                   _ body: (PreviewServer) throws -> T) throws -> T {
    var configuration = PreviewServer.Configuration()
    configuration.port = 0
    configure(&configuration)
    let server = try PreviewServer.start(configuration, site: site)
    defer { server.stop() }
    return try body(server)
}

/// `text` (a `Host` value, a raw request) with `PORT` replaced by the server's port.
func withPort(_ text: String, of server: PreviewServer) -> String {
    text.replacing("PORT", with: "\(server.port)")
}
