import Foundation
import Glibc

/// A tiny HTTP client on a raw loopback socket, so tests see exactly what the server sends,
/// including a live-reload event stream that never ends.
final class HTTPTestClient {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw CocoaError(.fileReadUnknown)
        }
    }

    deinit {
        close(socket)
    }

    func send(_ request: String) {
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until `marker` appears or `timeout` passes; returns everything read so far.
    @discardableResult
    func read(until marker: String, timeout: Duration = .seconds(5)) -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !String(decoding: buffer, as: UTF8.self).contains(marker), clock.now < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            buffer += chunk[..<count]
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Forgets what was read, so the next `read` waits for new data.
    func reset() {
        buffer = []
    }

    /// GET `path` on a fresh connection; the whole response as text.
    static func get(_ path: String, port: UInt16) throws -> String {
        let client = try HTTPTestClient(port: port)
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return client.read(until: "</html>", timeout: .seconds(5))
    }
}
