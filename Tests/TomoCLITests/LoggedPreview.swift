import Foundation
import TomoTestSupport

/// The real `tomo serve --no-reload` on `port`, whose printed lines (standard output and
/// error, in order) a test waits for.
final class LoggedPreview {
    let process = Process()
    let site: URL
    let port: UInt16
    private(set) var url = ""
    private let log = ServedPreview.Log()
    /// How much of the log earlier steps took.
    private var consumed = 0
    private var connection: RawHTTPConnection?

    enum Outcome {
        case rebuilt
        /// The rebuild failed; what it printed.
        case failed(String)
    }

    /// Everything it printed so far.
    var printed: String { log.text.withLock { $0 } }

    /// Where `get` connects (`--host`, or an address it leads to): `127.0.0.1`, `::1`.
    var address = "127.0.0.1"

    /// Runs `tomo serve` with `arguments` added (`--host ::1`), on `port` or else a port of its
    /// own (`freeLoopbackPort`).
    init(site: URL, port: UInt16? = nil, arguments: [String] = []) throws {
        self.site = site
        let port = try port ?? freeLoopbackPort()
        self.port = port
        process.executableURL = tomoBinary()
        process.arguments = ["serve", "--no-reload", "--port", String(port), "--site", site.path] + arguments
        process.standardInput = FileHandle.nullDevice
        let pipe = log.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Not the line on the last preview's files, served while the first build runs.
        let line = try line { $0.hasPrefix("Serving ") && !$0.hasPrefix("Serving the last preview's ") }
        url = String(line.dropFirst("Serving ".count).prefix { $0 != " " })
        // tomo serve moves on from a taken port: the test would then talk to another server.
        guard URLComponents(string: url)?.port == Int(port) else {
            stop()
            throw HarnessError("tomo serve was asked for port \(port) and serves \(url)")
        }
    }

    func stop() {
        if process.isRunning {
            process.interrupt()
            process.waitUntilExit()
        }
    }

    /// Waits until the preview has rebuilt after every change made so far, and says how that
    /// rebuild ended. It saves and deletes a file nothing reads (`content/users/-barrier-….txt`,
    /// which the change engine classifies as no content) and waits for the `Rebuilt … after` or
    /// `The rebuild after … failed` line naming it: the watcher reports changes in order and
    /// rebuilds one batch at a time, so every earlier change is rebuilt by then.
    func settle(step: Int) throws -> Outcome {
        // The last change before it gets its own batch, mostly (the watcher waits 30 ms for more).
        usleep(60_000)
        let path = "content/users/-barrier-\(step)-\(UUID().uuidString.prefix(8)).txt"
        try Data("barrier\n".utf8).write(to: site.appendingPathComponent(path))
        try FileManager.default.removeItem(at: site.appendingPathComponent(path))
        let start = consumed
        // When it shared a batch with more files, the line may name only the first three: a
        // line ending "and N more" with nothing after it for 3 s is the one.
        let line = try line(orQuietAfter: { $0.contains(" more: ") || $0.contains(" more failed") }) { $0.contains(path) }
        let text = log.text.withLock { String($0.dropFirst(start)) }
        return line.hasPrefix("Rebuilt") ? .rebuilt : .failed(text)
    }

    /// The first line after what earlier waits took that `matches`, waited for (or the last line
    /// that is `maybe` when no line followed it for 3 s); it and the lines before it are taken.
    func line(timeout: Double = 120, orQuietAfter maybe: (String) -> Bool = { _ in false }, _ matches: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var candidate: (line: String, end: Int, seen: Date)?
        var examined = consumed
        while Date() < deadline {
            let text = log.text.withLock { $0 }
            var offset = consumed
            for line in text.dropFirst(consumed).split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                offset += line.count + 1
                if matches(String(line)) {
                    consumed = offset
                    return String(line)
                }
                if offset > examined {
                    examined = offset
                    candidate = maybe(String(line)) ? (String(line), offset, Date()) : nil
                }
            }
            if let candidate, Date().timeIntervalSince(candidate.seen) > 3 {
                consumed = candidate.end
                return candidate.line
            }
            if !process.isRunning { throw HarnessError("tomo serve ended (\(process.terminationStatus)):\n\(text.suffix(3000))") }
            usleep(10_000)
        }
        throw HarnessError("tomo serve did not print the awaited line within \(Int(timeout)) s:\n\(log.text.withLock { $0 }.suffix(3000))")
    }

    /// `GET /path` on a kept-alive connection (a fresh one when it broke).
    func get(_ path: String) throws -> RawReply {
        let target = "/" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        if let connection, let reply = try? get(target, on: connection) { return reply }
        let fresh = try RawHTTPConnection(port: port, address: address, timeoutSeconds: 30)
        connection = fresh
        return try get(target, on: fresh)
    }

    /// Sends the `Host` a browser sends for `address`.
    private func get(_ target: String, on connection: RawHTTPConnection) throws -> RawReply {
        try connection.send("GET", target, host: (address.contains(":") ? "[\(address)]" : address) + ":\(port)")
        return try connection.readReply()
    }
}

/// A test's own machinery failed (not the code under test).
struct HarnessError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
