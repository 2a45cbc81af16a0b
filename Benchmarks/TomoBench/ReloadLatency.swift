import Foundation
import Glibc
import TomoServer

/// The server's share of "save a profile file → reload event in the browser": an editor-style
/// atomic save (write a temporary file, rename it over) in a folder of 1,000 profiles, the
/// watcher's debounced batch, a publish of the 1,000-page snapshot with one page changed, and
/// the `reload` event read from `/_tomo/events` by a client. The site rebuild is not included:
/// add its time for the whole figure. Median of 20 edits.
enum ReloadLatency {
    static func measure(server: PreviewServer, site: ServedSite, userCount: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-bench-watch-\(getpid())")
        let users = folder.appendingPathComponent("users")
        try FileManager.default.createDirectory(at: users, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<userCount {
            try Data("name: User \(index)\n".utf8).write(to: users.appendingPathComponent("user\(index).yaml"))
        }
        let watcher = try FileWatcher(folders: [folder]) { _ in
            // Stands in for the rebuild: one page changed, every other byte the same.
            var rebuilt = site
            rebuilt.files["alice/index.html"]? += Array("<!-- \(Date().timeIntervalSince1970) -->".utf8)
            if let kind = server.publish(rebuilt).reloadKind { server.notifyReload(kind) }
        }
        defer { watcher.stop() }
        let events = try EventStreamReader(port: server.port)
        var milliseconds: [Double] = []
        for edit in 0..<20 {
            let target = users.appendingPathComponent("user\(edit).yaml")
            let temporary = users.appendingPathComponent(".user\(edit).yaml.tmp")
            let start = ContinuousClock.now
            try Data("name: User \(edit) edited\n".utf8).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw BenchmarkError("rename failed") }
            try events.waitFor("event: reload")
            let elapsed = ContinuousClock.now - start
            milliseconds.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            Thread.sleep(forTimeInterval: 0.1)  // let the next edit start a new batch
        }
        milliseconds.sort()
        print(String(format: "server: save → reload event, %d profiles, watcher debounce 50 ms, without the rebuild: median %.1f ms, max %.1f ms (20 edits)",
                     userCount, milliseconds[milliseconds.count / 2], milliseconds.last ?? 0))
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A raw-socket client of `/_tomo/events` that waits for an event's text.
final class EventStreamReader {
    private let socket: Int32
    private var received = ""

    init(port: UInt16) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        let request = "GET /_tomo/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        guard connected, send(socket, request, request.utf8.count, 0) == request.utf8.count else {
            close(socket)
            throw BenchmarkError("cannot open the event stream on port \(port)")
        }
        try waitFor("retry:")
    }

    deinit {
        close(socket)
    }

    /// Reads until `text` has arrived, and forgets everything up to it.
    func waitFor(_ text: String) throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.range(of: text) == nil {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { throw BenchmarkError("the event stream ended or timed out") }
            received += String(decoding: chunk[..<count], as: UTF8.self)
        }
        if let range = received.range(of: text) { received = String(received[range.upperBound...]) }
    }
}
