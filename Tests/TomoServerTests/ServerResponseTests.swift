import Foundation
import Testing
import TomoServer
import TomoTestSupport

@Suite struct ServerResponseTests {
    @Test(arguments: [
        ("/", "text/html; charset=utf-8"),
        ("/alice/", "text/html; charset=utf-8"),
        ("/alice/index.html", "text/html; charset=utf-8"),
        ("/feed.xml", "application/atom+xml; charset=utf-8"),
        ("/alice/feed.xml", "application/atom+xml; charset=utf-8"),
        ("/sitemap.xml", "application/xml; charset=utf-8"),
        ("/search.json", "application/json; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/static/app.js", "text/javascript; charset=utf-8"),
        ("/static/icon.svg", "image/svg+xml"),
        ("/static/site.webmanifest", "application/manifest+json; charset=utf-8"),
        ("/static/font.woff2", "font/woff2"),
        ("/static/font.woff", "font/woff"),
        ("/favicon.ico", "image/x-icon"),
        ("/robots.txt", "text/plain; charset=utf-8"),
        ("/media/a.png", "image/png"),
        ("/media/b.jpg", "image/jpeg"),
        ("/media/c.jpeg", "image/jpeg"),
        ("/media/d.webp", "image/webp"),
        ("/media/e.gif", "image/gif"),
        ("/media/f.avif", "image/avif"),
        ("/media/G.JPG", "image/jpeg"),
        ("/static/Notes.Txt", "text/plain; charset=utf-8"),
        ("/static/no-extension", "application/octet-stream"),
        ("/static/.hidden", "application/octet-stream"),
        ("/static/a.b/c", "application/octet-stream"),
        ("/static/feed.xml.bak", "application/octet-stream"),
    ])
    func servesEveryFileTypeWithItsContentType(path: String, type: String) throws {
        try withServer { server throws in
            let reply = try fetch(server.port, path)
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == type)
            #expect(reply.headers["etag"] != nil)
        }
    }

    @Test func servesTheBytesOfTheSnapshot() throws {
        try withServer { server throws in
            let reply = try fetch(server.port, "/media/a.png")
            #expect(reply.body == [0x89, 0x50, 0x4E, 0x47])
            #expect(reply.headers["content-length"] == "4")
        }
    }

    @Test func redirectsAFolderWithoutSlashKeepingTheQuery() throws {
        try withServer { server throws in
            let reply = try fetch(server.port, "/alice?tab=posts&x=%20")
            #expect(reply.status == 301)
            #expect(reply.headers["location"] == "/alice/?tab=posts&x=%20")
            #expect(try fetch(server.port, "/alice").headers["location"] == "/alice/")
        }
    }

    @Test func answersMissingPathsWithTheSitesNotFoundPage() throws {
        try withServer { server throws in
            let reply = try fetch(server.port, "/nobody/")
            #expect(reply.status == 404)
            #expect(reply.text.contains("Nothing here"))
            #expect(reply.headers["content-type"] == "text/html; charset=utf-8")
        }
    }

    @Test func answersMissingPathsInPlainTextWithoutANotFoundPage() throws {
        try withServer(site: ServedSite(files: ["index.html": Array("home".utf8)])) { server throws in
            let reply = try fetch(server.port, "/missing.css")
            #expect(reply.status == 404)
            #expect(reply.headers["content-type"] == "text/plain; charset=utf-8")
        }
    }

    /// Before the first build publishes anything (no preview kept its files), every page may
    /// be on its way: the answer asks again in a second rather than saying "not found".
    @Test func answersBeforeTheFirstBuildWithAPageThatAsksAgain() throws {
        try withServer(site: ServedSite()) { server throws in
            for path in ["/", "/alice/", "/static/style.css"] {
                let reply = try fetch(server.port, path)
                #expect(reply.status == 503)
                #expect(reply.headers["retry-after"] == "1")
                #expect(reply.headers["content-type"] == "text/html; charset=utf-8")
                #expect(reply.text.contains("<meta http-equiv=\"refresh\" content=\"1\">"))
            }
            _ = server.publish(sampleSite)
            #expect(try fetch(server.port, "/").status == 200)
            let missing = try fetch(server.port, "/nobody/")
            #expect(missing.status == 404 && missing.text.contains("Nothing here"))
        }
    }

    @Test func neverListsAFolderWithoutIndex() throws {
        try withServer { server throws in
            #expect(try fetch(server.port, "/static/").status == 404)
            #expect(try fetch(server.port, "/media").status == 404)
        }
    }

    @Test func answersNotModifiedWhenTheETagMatches() throws {
        try withServer { server throws in
            let first = try fetch(server.port, "/alice/")
            let etag = try #require(first.headers["etag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            let second = try fetch(server.port, "/alice/", headers: ["If-None-Match: \(etag)"])
            #expect(second.status == 304)
            #expect(second.headers["etag"] == etag)
            #expect(second.body.isEmpty)
            let other = try fetch(server.port, "/alice/", headers: ["If-None-Match: \"stale\""])
            #expect(other.status == 200)
        }
    }

    @Test func changesTheETagWhenTheContentChanges() throws {
        try withServer { server throws in
            let before = try fetch(server.port, "/").headers["etag"]
            var site = sampleSite
            site.files["index.html"] = Array("<p>changed</p>".utf8)
            server.publish(site)
            let after = try fetch(server.port, "/", headers: ["If-None-Match: \(before ?? "")"])
            #expect(after.status == 200)
            #expect(after.text == "<p>changed</p>")
            #expect(after.headers["etag"] != before)
        }
    }

    @Test func answersHeadWithTheHeadersOfGetAndNoBody() throws {
        try withServer { server throws in
            let get = try fetch(server.port, "/alice/")
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("HEAD", "/alice/")
            let head = try connection.readReply(bodyless: true)
            #expect(head.status == 200)
            for name in ["content-type", "content-length", "etag"] {
                #expect(head.headers[name] == get.headers[name])
            }
            // The connection stays usable: no body bytes were left in it.
            try connection.send("GET", "/robots.txt")
            #expect(try connection.readReply().text == "User-agent: *")
        }
    }

    @Test func refusesOtherMethods() throws {
        try withServer { server throws in
            let reply = try fetch(server.port, "/", method: "POST")
            #expect(reply.status == 405)
            #expect(reply.headers["allow"] == "GET, HEAD")
        }
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            for path in ["/", "/alice/", "/static/style.css"] {
                try connection.send("GET", path)
                let reply = try connection.readReply()
                #expect(reply.status == 200)
                #expect(reply.headers["connection"]?.lowercased() != "close")
            }
        }
    }

    @Test func gzipsTextForClientsThatAcceptIt() throws {
        try withServer { server throws in
            let plain = try fetch(server.port, "/alice/")
            let zipped = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip, deflate, br"])
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(zipped.headers["vary"] == "Accept-Encoding")
            #expect(plain.headers["vary"] == "Accept-Encoding")
            #expect(plain.headers["content-encoding"] == nil)
            #expect(zipped.body.count < plain.body.count)
            #expect(try gunzip(zipped.body) == plain.body)
            #expect(zipped.headers["etag"] != plain.headers["etag"])
            // The gzip ETag revalidates too.
            let etag = zipped.headers["etag"] ?? ""
            let revalidated = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip", "If-None-Match: \(etag)"])
            #expect(revalidated.status == 304)
        }
    }

    @Test func neverGzipsImagesOrForRefusingClients() throws {
        try withServer { server throws in
            let image = try fetch(server.port, "/media/b.jpg", headers: ["Accept-Encoding: gzip"])
            #expect(image.headers["content-encoding"] == nil)
            #expect(image.headers["vary"] == nil)
            for value in ["gzip;q=0", "gzip;Q=0", "gzip; q=0.000", "x-gzip;q=0"] {
                let refused = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: \(value)"])
                #expect(refused.headers["content-encoding"] == nil, "\(value)")
            }
            // `x-gzip` is gzip by another name.
            #expect(try fetch(server.port, "/alice/", headers: ["Accept-Encoding: x-gzip"]).headers["content-encoding"] == "gzip")
        }
    }

    @Test func requestsSeeTheNewSnapshotAfterPublish() throws {
        try withServer { server throws in
            server.publish(ServedSite(files: ["bob/index.html": Array("bob".utf8)]))
            #expect(try fetch(server.port, "/bob/").text == "bob")
            #expect(try fetch(server.port, "/alice/").status == 404)
        }
    }

    @Test func publishingChangedFilesReplacesOnlyThoseAndReportsRealChanges() throws {
        try withServer { server throws in
            let bob = ["bob/index.html": server.servedFile(path: "bob/index.html", bytes: Array("bob".utf8))]
            #expect(server.publish(changed: bob, removed: ["robots.txt"]).paths == ["bob/index.html", "robots.txt"])
            #expect(try fetch(server.port, "/bob/").text == "bob")
            #expect(try fetch(server.port, "/alice/").status == 200)
            #expect(try fetch(server.port, "/robots.txt").status == 404)
            // The same bytes again: nothing changed, so no reload.
            let again = ["bob/index.html": server.servedFile(path: "bob/index.html", bytes: Array("bob".utf8))]
            #expect(server.publish(changed: again, removed: []).reloadKind == nil)
        }
    }
}

@Suite struct SnapshotSwapTests {
    @Test func everyResponseComesWhollyFromOneSnapshot() throws {
        let versions = (0..<2).map { version in
            ServedSite(files: ["page.html": Array(String(repeating: "v\(version)", count: 10_000).utf8)])
        }
        try withServer(site: versions[0]) { server throws in
            let published = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for round in 0..<200 { server.publish(versions[round % 2]) }
                published.signal()
            }
            defer { published.wait() }
            let connection = try RawHTTPConnection(port: server.port)
            // Each publish deletes the blob of the version it replaces: a request that looked
            // the page up just before still gets the whole page, plain or gzipped.
            for round in 0..<200 {
                let gzip = round % 2 == 1
                try connection.send("GET", "/page.html", headers: gzip ? ["Accept-Encoding: gzip"] : [])
                let reply = try connection.readReply()
                #expect(reply.status == 200)
                let body = String(decoding: gzip ? try gunzip(reply.body) : reply.body, as: UTF8.self)
                #expect(body == String(repeating: "v0", count: 10_000) || body == String(repeating: "v1", count: 10_000))
            }
        }
    }
}
