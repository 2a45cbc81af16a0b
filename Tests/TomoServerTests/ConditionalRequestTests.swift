import Foundation
import Testing
import TomoServer
import TomoTestSupport

/// `If-None-Match` is answered for the representation the request would get, and a `304`
/// never claims a length the `200` would not have.
@Suite struct ConditionalRequestTests {
    @Test func theGzipETagDoesNotRevalidateThePlainFile() throws {
        try withServer { server throws in
            let zipped = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip"])
            let gzipTag = try #require(zipped.headers["etag"])
            let plainTag = try #require(try fetch(server.port, "/alice/").headers["etag"])
            #expect(gzipTag != plainTag)
            // Without gzip the plain file would be sent: the gzip tag does not name it.
            let plainWithGzipTag = try fetch(server.port, "/alice/", headers: ["If-None-Match: \(gzipTag)"])
            #expect(plainWithGzipTag.status == 200)
            #expect(plainWithGzipTag.headers["etag"] == plainTag)
            #expect(plainWithGzipTag.headers["content-encoding"] == nil)
            // With gzip the gzip form would be sent: the plain tag does not name it.
            let zippedWithPlainTag = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip", "If-None-Match: \(plainTag)"])
            #expect(zippedWithPlainTag.status == 200)
            #expect(zippedWithPlainTag.headers["content-encoding"] == "gzip")
            // Each tag still revalidates its own form, alone or in a list.
            #expect(try fetch(server.port, "/alice/", headers: ["If-None-Match: \(plainTag)"]).status == 304)
            #expect(try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip", "If-None-Match: \"stale\", \(gzipTag)"]).status == 304)
            #expect(try fetch(server.port, "/alice/", headers: ["If-None-Match: *"]).status == 304)
        }
    }

    /// RFC 9110 §8.6: a 304 may give Content-Length only as the 200's own. libmicrohttpd 0.9.75
    /// writes one for every response of known size, so it must be the size the 200 sends.
    @Test func aNotModifiedReplyNeverGivesAnotherLength() throws {
        try withServer { server throws in
            for (path, headers) in [("/alice/", [String]()), ("/alice/", ["Accept-Encoding: gzip"]), ("/media/b.jpg", [])] {
                let full = try fetch(server.port, path, headers: headers)
                let etag = try #require(full.headers["etag"])
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("GET", path, headers: headers + ["If-None-Match: \(etag)"])
                let notModified = try connection.readReply()
                #expect(notModified.status == 304)
                if let length = notModified.headers["content-length"] {
                    #expect(length == full.headers["content-length"], "\(path) \(headers): 304 gives \(length), 200 gives \(full.headers["content-length"] ?? "none")")
                    #expect(Int(length) == full.body.count)
                }
                #expect(notModified.headers["transfer-encoding"] == nil)
                // Nothing follows the 304's head on the connection: the next reply is whole.
                try connection.send("GET", "/robots.txt")
                let next = try connection.readReply()
                #expect(next.status == 200)
                #expect(next.text == "User-agent: *")
            }
        }
    }
}
