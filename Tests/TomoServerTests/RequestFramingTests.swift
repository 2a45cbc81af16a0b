import Testing
import TomoServer
import TomoTestSupport

/// A request whose host or length could be read two ways is refused (400) as soon as its headers
/// are in, before its body, and its connection is closed, so nothing after it is taken as a
/// request: no server or proxy on the way can disagree with this one about where a request ends.
@Suite struct RequestFramingTests {
    /// Raw request heads (without the blank line that ends them), `PORT` for the server's port.
    static let refused = [
        "GET / HTTP/1.1",
        "GET /_tomo/events HTTP/1.1",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nHost: localhost:PORT",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nHost: evil.example",
        "GET / HTTP/1.1\r\nhost: localhost:PORT\r\nHOST: localhost:PORT",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nContent-Length: 0\r\nContent-Length: 40",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nContent-Length: 5\r\ncontent-length: 6",
        "POST / HTTP/1.1\r\nHost: localhost:PORT\r\nContent-Length: 40\r\nContent-Length: 0",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nContent-Length: 0\r\nTransfer-Encoding: chunked",
        "GET / HTTP/1.0\r\nHost: localhost:PORT\r\nHost: localhost:PORT",
        // White space before the colon: a proxy may read a Host this server would not.
        "GET / HTTP/1.1\r\nHost : evil.example:PORT\r\nHost: localhost:PORT",
        "GET / HTTP/1.1\r\nHost: localhost:PORT\r\nContent-Length\t: 0",
    ]

    @Test(arguments: refused)
    func refusesAtOnceAndClosesTheConnection(head: String) throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            // No body follows, whatever Content-Length says: the answer must not wait for one.
            try connection.sendRaw(withPort(head, of: server) + "\r\n\r\n")
            let reply = try connection.readReply()
            #expect(reply.status == 400)
            #expect(reply.headers["connection"] == "close")
            #expect(reply.text.hasPrefix("Bad request: "))
            #expect(connection.isClosedByServer())
        }
    }

    /// A body in a transfer coding this server cannot read is refused at once (501), not
    /// waited on until the connection times out.
    @Test(arguments: ["xchunked", "gzip, chunked", "chunked, identity"])
    func anUnknownTransferCodingIsNotImplemented(coding: String) throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.sendRaw("GET / HTTP/1.1\r\nHost: localhost:\(server.port)\r\nTransfer-Encoding: \(coding)\r\n\r\n")
            let reply = try connection.readReply()
            #expect(reply.status == 501)
            #expect(reply.text.hasPrefix("Not implemented: "), "\(reply.text)")
            #expect(connection.isClosedByServer())
        }
    }

    @Test func aSmuggledRequestAfterConflictingLengthsIsNeverAnswered() throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            let smuggled = "GET /alice/ HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n"
            try connection.sendRaw("GET / HTTP/1.1\r\nHost: localhost:\(server.port)\r\nContent-Length: 0\r\n"
                + "Content-Length: \(smuggled.utf8.count)\r\n\r\n" + smuggled)
            #expect(try connection.readReply().status == 400)
            #expect(connection.isClosedByServer())
        }
    }

    @Test func servesWhatHasOneReading() throws {
        try withServer { server throws in
            let port = server.port
            let served = [
                // HTTP/1.0 has no Host header (and browsers never send such a request).
                "GET /robots.txt HTTP/1.0\r\n\r\n",
                "GET /robots.txt HTTP/1.1\r\nHost: localhost:\(port)\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab",
                "GET /robots.txt HTTP/1.1\r\nHost: localhost:\(port)\r\nContent-Length: 0\r\n\r\n",
                "GET /robots.txt HTTP/1.1\r\nHost: localhost:\(port)\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
            ]
            for request in served {
                let connection = try RawHTTPConnection(port: port)
                try connection.sendRaw(request)
                let reply = try connection.readReply()
                #expect(reply.status == 200, "\(request)")
                #expect(reply.text == "User-agent: *")
            }
        }
    }

    @Test func keepsTheConnectionAfterARequestWithABody() throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.sendRaw("GET / HTTP/1.1\r\nHost: localhost:\(server.port)\r\nContent-Length: 3\r\n\r\nabc")
            #expect(try connection.readReply().status == 200)
            try connection.send("GET", "/robots.txt")
            #expect(try connection.readReply().text == "User-agent: *")
        }
    }
}
