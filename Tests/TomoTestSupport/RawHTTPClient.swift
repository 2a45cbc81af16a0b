import Foundation
import Glibc

/// A response as it came over the wire.
public struct RawReply {
    public var status: Int
    /// Header names lower-cased (the last one of a name that came twice).
    public var headers: [String: String]
    /// Every header line as it came, in order.
    public var headerLines: [String]
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// A tiny HTTP/1.1 client on a plain loopback socket, so tests control every byte of the request
/// line (URLSession would normalise `..` and escapes before sending them) and can read a
/// live-reload event stream that never ends. Shared by the server's and the preview's tests.
public final class RawHTTPConnection {
    private let socket: Int32
    private let port: UInt16
    private var buffer: [UInt8] = []

    /// Connects to `address` (an IPv4 address, or an IPv6 one such as `::1`), `port`.
    public init(port: UInt16, address host: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        self.port = port
        // Assigned only once connected: `deinit` closes it, and it also runs when this init
        // throws, so a socket closed here as well would be closed twice, the second time
        // closing whatever another thread had opened under the same number meanwhile.
        socket = try Self.connectedSocket(port: port, address: host, timeoutSeconds: timeoutSeconds)
    }

    private static func connectedSocket(port: UInt16, address host: String, timeoutSeconds: Int) throws -> Int32 {
        let ipv6 = host.contains(":")
        let socket = Glibc.socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                Glibc.close(socket)
                throw RawHTTPError(description: "\(host) is no IPv6 address")
            }
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr(host)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            let number = errno
            Glibc.close(socket)
            throw RawHTTPError(description: "connect to port \(port) failed: errno \(number)")
        }
        return socket
    }

    deinit {
        Glibc.close(socket)
    }

    /// Sends a request with a raw target (`/%2e%2e/`), a `Host` header (by default the one a
    /// browser sends for this server, `127.0.0.1:<port>`) and extra header lines.
    public func send(_ method: String = "GET", _ target: String, host: String? = nil, headers: [String] = []) throws {
        let lines = ["\(method) \(target) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")"] + headers
        try sendRaw(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    /// Sends `text` exactly as it is (a request without `Host`, with two of them, HTTP/1.0).
    public func sendRaw(_ text: String) throws {
        let request = Array(text.utf8)
        let sent = request.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        let failure = errno
        guard sent == request.count else { throw RawHTTPError(description: "send to port \(port) failed: \(sent < 0 ? "errno \(failure)" : "\(sent) of \(request.count) bytes")") }
    }

    /// Reads a response's status line and headers only (the body, say an event stream, stays
    /// to be read).
    public func readHead() throws -> RawReply {
        let headerEnd = try readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawHTTPError(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawReply(status: status, headers: headers, headerLines: lines, body: [])
    }

    /// Reads one response; a HEAD response or a 304 has no body whatever its headers say.
    public func readReply(bodyless: Bool = false) throws -> RawReply {
        var reply = try readHead()
        let (status, headers) = (reply.status, reply.headers)
        var body: [UInt8] = []
        if bodyless || status == 304 {
        } else if headers["transfer-encoding"] == "chunked" {
            while true {
                let lineEnd = try readUntil(Array("\r\n".utf8))
                let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                buffer.removeFirst(lineEnd + 2)
                try fill(size + 2)
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            try fill(length)
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        reply.body = body
        return reply
    }

    /// Reads raw bytes (an event stream) until they contain `marker`; returns everything read.
    public func readStream(until marker: String) throws -> String {
        let end = try readUntil(Array(marker.utf8))
        let text = String(decoding: buffer[..<(end + marker.utf8.count)], as: UTF8.self)
        buffer.removeFirst(end + marker.utf8.count)
        return text
    }

    /// Whether the server closed the connection (a read returns end of file).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        for _ in 0..<10_000 {
            if let index = firstIndex(of: marker) { return index }
            try receive()
        }
        throw RawHTTPError(description: "marker never arrived")
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count { try receive() }
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw RawHTTPError(description: "connection closed or timed out (\(count))") }
        buffer += chunk[..<count]
    }

    private func firstIndex(of marker: [UInt8]) -> Int? {
        guard buffer.count >= marker.count else { return nil }
        for start in 0...(buffer.count - marker.count) where buffer[start..<start + marker.count].elementsEqual(marker) {
            return start
        }
        return nil
    }
}

/// One request on a fresh connection (`host`: as in `RawHTTPConnection.send`).
public func fetch(_ port: UInt16, _ target: String, method: String = "GET", host: String? = nil,
                  headers: [String] = []) throws -> RawReply {
    let connection = try RawHTTPConnection(port: port)
    try connection.send(method, target, host: host, headers: headers)
    return try connection.readReply(bodyless: method == "HEAD")
}
