import Glibc
import Synchronization
import Testing
import TomoServer
import TomoTestSupport

@Suite struct ServerLifecycleTests {
    @Test func triesTheNextPortWhenThePortIsTaken() throws {
        let (blocker, takenPort) = try listenOnFreePort()
        defer { close(blocker) }
        let notes = Mutex<[String]>([])
        var configuration = PreviewServer.Configuration()
        configuration.port = takenPort
        let server = try PreviewServer.start(configuration, site: sampleSite) { note in notes.withLock { $0.append(note) } }
        defer { server.stop() }
        #expect(server.port != takenPort)
        #expect(server.port > takenPort && server.port <= takenPort + 20)
        #expect(notes.withLock { $0.first } == "port \(takenPort) is in use; trying \(takenPort + 1)")
        #expect(server.url == "http://127.0.0.1:\(server.port)/")
        #expect(try fetch(server.port, "/").status == 200)
    }

    @Test func saysWhenEveryPortIsTaken() throws {
        let (blocker, takenPort) = try listenOnFreePort()
        defer { close(blocker) }
        var configuration = PreviewServer.Configuration()
        configuration.port = takenPort
        configuration.portAttempts = 1
        #expect(throws: (any Error).self) { try PreviewServer.start(configuration) }
    }

    @Test func refusesAHostThatIsNoIPv4Address() {
        var configuration = PreviewServer.Configuration()
        configuration.host = "example.invalid"
        configuration.port = 0
        #expect(throws: (any Error).self) { try PreviewServer.start(configuration) }
    }

    @Test func stopClosesOpenConnectionsAndIsSafeTwice() throws {
        var configuration = PreviewServer.Configuration()
        configuration.port = 0
        let server = try PreviewServer.start(configuration, site: sampleSite)
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET", "/")
        #expect(try connection.readReply().status == 200)
        server.stop()
        server.stop()
        // (Whether the port refuses connections is not checked: with tests running in
        // parallel, another test's server may get the same free port at once.)
        #expect(connection.isClosedByServer())
    }
}

/// A socket listening on a free loopback port, so a test can make that port "taken".
func listenOnFreePort() throws -> (socket: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else {
        close(fd)
        throw RawHTTPError(description: "could not bind a free port")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}
