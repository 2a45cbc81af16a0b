import Testing
@testable import TomoServer
import TomoTestSupport

/// The server answers only requests addressed to it: a page whose DNS name was pointed at
/// 127.0.0.1 (DNS rebinding) sends that name in `Host`, and gets 421 for every path.
@Suite struct HostCheckTests {
    /// `Host` values, with `PORT` standing for the server's port, that name this server.
    static let accepted = ["127.0.0.1:PORT", "localhost:PORT", "LocalHost:PORT", "[::1]:PORT", " localhost:PORT "]

    /// `Host` values that are well-formed but name another server, or this one on another port.
    static let misdirected = [
        "evil.example:PORT", "evil.example", "127.0.0.1", "localhost", "localhost:",
        "localhost:80", "127.0.0.1:1", "localhost.:PORT", "app.localhost:PORT", "127.0.0.1.nip.io:PORT",
        "127.0.0.2:PORT", "0.0.0.0:PORT", "10.0.0.1:PORT", "127.1:PORT", "[::2]:PORT", "[::ffff:127.0.0.1]:PORT",
    ]

    /// `Host` values that are no host at all.
    static let malformed = ["", "a b:PORT", "[::1:PORT", "[zz]:PORT", "localhost:port", "localhost:99999",
                            "localhost:+80", "localhost:PORT:PORT", "evil.example/x", "user@localhost:PORT", "é.example:PORT"]

    /// Names of this server are served (200); values that are no host are refused (400).
    @Test(arguments: [(accepted, 200), (malformed, 400)])
    func answersEachHost(hosts: [String], status: Int) throws {
        try withServer { server throws in
            for host in hosts {
                #expect(try fetch(server.port, "/", host: withPort(host, of: server)).status == status, "Host: \(host)")
            }
        }
    }

    @Test func answersOtherHostsWithMisdirectedRequestOnEveryPath() throws {
        let paths = ["/", "/alice/", "/alice", "/static/style.css", "/_tomo/events", "/_tomo/reload.js",
                     "/missing/", "/%2e%2e/", "/" + String(repeating: "a", count: 9000)]
        try withServer { server throws in
            for host in Self.misdirected {
                for path in paths {
                    for method in ["GET", "HEAD", "POST"] {
                        let reply = try fetch(server.port, path, method: method, host: withPort(host, of: server))
                        #expect(reply.status == 421, "\(method) \(path) Host: \(host)")
                        #expect(!reply.text.contains("Alice") && !reply.text.contains("<"), "\(path) Host: \(host)")
                    }
                }
            }
        }
    }

    @Test func closesTheConnectionAfterAMisdirectedRequest() throws {
        try withServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET", "/", host: "evil.example:\(server.port)")
            let reply = try connection.readReply()
            #expect(reply.status == 421)
            #expect(reply.headers["connection"] == "close")
            #expect(reply.text == "Misdirected request: this server answers only requests for localhost, 127.0.0.1 or [::1], port \(server.port).\n")
            #expect(connection.isClosedByServer())
        }
    }

    @Test func theEventStreamOpensOnlyForThisServer() throws {
        try withServer { server throws in
            let refused = try fetch(server.port, "/_tomo/events", host: "rebound.example:\(server.port)")
            #expect(refused.status == 421)
            #expect(server.openEventStreamCount == 0)
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET", "/_tomo/events", host: "localhost:\(server.port)")
            #expect(try connection.readHead().status == 200)
        }
    }

    @Test func acceptsTheAddressItListensOn() throws {
        // 127.0.0.2 is loopback too (all of 127.0.0.0/8 is, on Linux).
        try withServer(configure: { $0.host = "127.0.0.2" }) { server throws in
            let ownAddress = try RawHTTPConnection(port: server.port, address: "127.0.0.2")
            try ownAddress.send("GET", "/", host: "127.0.0.2:\(server.port)")
            #expect(try ownAddress.readReply().status == 200)
            let otherName = try RawHTTPConnection(port: server.port, address: "127.0.0.2")
            try otherName.send("GET", "/", host: "127.0.0.3:\(server.port)")
            #expect(try otherName.readReply().status == 421)
        }
    }

    // Ports 80 and all interfaces cannot be bound by a test: the rules are checked directly.

    @Test func aHostWithoutPortMeansPort80() throws {
        let onPort80 = AllowedHosts(address: try ListenAddress("127.0.0.1"), port: 80)
        for host in ["localhost", "127.0.0.1", "[::1]", "localhost:80", "localhost:"] {
            #expect(onPort80.allows(try #require(HostHeader(host))), "\(host)")
        }
        for host in ["localhost:8080", "evil.example"] {
            #expect(!onPort80.allows(try #require(HostHeader(host))), "\(host)")
        }
    }

    @Test func onAllInterfacesAcceptsAnyAddressButNoOtherName() throws {
        let everywhere = AllowedHosts(address: try ListenAddress("0.0.0.0"), port: 8080)
        for host in ["192.168.1.20:8080", "10.0.0.5:8080", "0.0.0.0:8080", "[fe80::1]:8080", "[2001:db8::7]:8080",
                     "localhost:8080", "127.0.0.1:8080"] {
            #expect(everywhere.allows(try #require(HostHeader(host))), "\(host)")
        }
        for host in ["evil.example:8080", "mybox.local:8080", "mybox:8080", "192.168.1.20:8081", "192.168.1.20",
                     "192.168.001.020:8080", "3232235796:8080"] {
            #expect(!everywhere.allows(try #require(HostHeader(host))), "\(host)")
        }
    }

    /// An IPv6 listening address is named in brackets, as URLs and `Host` headers write it;
    /// `::` is every interface, as 0.0.0.0 is.
    @Test func anIPv6AddressIsAllowedInBrackets() throws {
        let one = AllowedHosts(address: try ListenAddress("2001:DB8:0::7"), port: 8080)
        #expect(one.allows(try #require(HostHeader("[2001:db8::7]:8080"))))
        #expect(one.allows(try #require(HostHeader("[::1]:8080"))))
        #expect(!one.allows(try #require(HostHeader("[2001:db8::8]:8080"))))
        let everywhere = AllowedHosts(address: try ListenAddress("::"), port: 8080)
        #expect(everywhere.allows(try #require(HostHeader("[fd00::2]:8080"))))
        #expect(everywhere.allows(try #require(HostHeader("10.0.0.5:8080"))))
        #expect(!everywhere.allows(try #require(HostHeader("mybox.local:8080"))))
    }

    @Test func onOneNetworkAddressAcceptsThatAddressAndLocalNamesOnly() throws {
        let lan = AllowedHosts(address: try ListenAddress("192.168.1.20"), port: 8080)
        #expect(lan.allows(try #require(HostHeader("192.168.1.20:8080"))))
        #expect(lan.allows(try #require(HostHeader("localhost:8080"))))
        #expect(!lan.allows(try #require(HostHeader("192.168.1.21:8080"))))
        #expect(!lan.allows(try #require(HostHeader("mybox.local:8080"))))
    }
}
