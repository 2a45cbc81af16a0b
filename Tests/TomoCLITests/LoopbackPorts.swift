import Foundation
import Glibc
import Synchronization

/// A TCP port on 127.0.0.1 that nothing listens on now, for a `tomo serve` a test starts.
///
/// A port the system picks (binding port 0) comes from the range it also gives every outgoing
/// connection, and this suite makes thousands of them at once: by the time `tomo serve` binds
/// the port, a client socket may hold it, and the server moves on to the next one while the test
/// talks to whoever is there. So the ports are handed out in turn from below that range, each
/// once per test process, and checked free when handed out.
func freeLoopbackPort() throws -> UInt16 {
    try LoopbackPorts.shared.next()
}

private final class LoopbackPorts: Sendable {
    static let shared = LoopbackPorts()

    private let range: Range<Int>
    private let cursor: Mutex<Int>

    private init() {
        // The system's range for outgoing connections (32768–60999 unless changed).
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        let (low, high) = bounds.count == 2 ? (bounds[0], bounds[1]) : (32768, 60999)
        range = low - 10_000 > 1024 ? (low - 10_000)..<low : (high + 1)..<65536
        // Another test process (`make fuzz` beside `make test`) most likely starts elsewhere.
        cursor = Mutex(range.lowerBound + Int.random(in: 0..<range.count))
    }

    func next() throws -> UInt16 {
        for _ in 0..<range.count {
            let port = cursor.withLock { cursor in
                defer { cursor = cursor + 1 < range.upperBound ? cursor + 1 : range.lowerBound }
                return cursor
            }
            if let free = UInt16(exactly: port), Self.isFree(free) { return free }
        }
        throw HarnessError("no free port in \(range)")
    }

    /// Whether a socket can bind the port now (as the server will, with SO_REUSEADDR).
    private static func isFree(_ port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { Glibc.close(socket) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
