import Foundation
import TomoCore

/// The open live-reload event streams and what to tell them.
///
/// Each stream's sender thread (thread-per-connection) blocks in `read` until there is an event,
/// a heartbeat is due or the hub closes; broadcasting appends to every stream's queue.
final class EventHub: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var streams: [ObjectIdentifier: EventStream] = [:]
    private var currentError: String?
    private var isClosed = false
    private let heartbeatInterval: Duration

    init(heartbeatInterval: Duration) {
        self.heartbeatInterval = heartbeatInterval
    }

    /// A new stream, which starts with the reconnect delay and the error being shown (so a page
    /// opened during a failed build shows the overlay); nil once the hub is closed.
    func open() -> EventStream? {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return nil }
        let stream = EventStream(hub: self)
        // EventSource reconnects this many milliseconds after the server went away.
        stream.pending = Array("retry: 1000\n\n".utf8)
        if let currentError { stream.pending += Self.encode(event: "error", data: Self.json(currentError)) }
        streams[ObjectIdentifier(stream)] = stream
        return stream
    }

    func send(_ kind: ReloadKind) {
        switch kind {
        case .page: broadcast(Self.encode(event: "reload", data: "page"))
        case .css: broadcast(Self.encode(event: "css", data: "css"))
        }
    }

    /// Shows `message` in every open page, or hides the overlay when nil.
    func showError(_ message: String?) {
        condition.lock()
        currentError = message
        condition.unlock()
        broadcast(message.map { Self.encode(event: "error", data: Self.json($0)) }
            ?? Self.encode(event: "clear", data: ""))
    }

    /// Ends every stream and refuses new ones (the server is stopping).
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    var openStreamCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return streams.count
    }

    /// Fills `buffer` with up to `capacity` bytes of the stream, waiting for an event or the
    /// heartbeat. Returns the byte count, or nil when the stream is over.
    func read(_ stream: EventStream, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(heartbeatInterval.seconds)
        while stream.pending.isEmpty && !isClosed && !stream.isCancelled {
            if !condition.wait(until: deadline) { break }
        }
        if isClosed || stream.isCancelled { return nil }
        // A comment line: ignored by EventSource, but keeps proxies and idle timers from
        // closing a quiet stream.
        if stream.pending.isEmpty { stream.pending = Array(": heartbeat\n\n".utf8) }
        let count = min(buffer.count, stream.pending.count)
        buffer.copyBytes(from: stream.pending[..<count])
        stream.pending.removeFirst(count)
        return count
    }

    /// Forgets a stream whose connection ended.
    func remove(_ stream: EventStream) {
        condition.lock()
        stream.isCancelled = true
        streams[ObjectIdentifier(stream)] = nil
        condition.broadcast()
        condition.unlock()
    }

    private func broadcast(_ bytes: [UInt8]) {
        condition.lock()
        for stream in streams.values { stream.pending += bytes }
        condition.broadcast()
        condition.unlock()
    }

    private static func encode(event: String, data: String) -> [UInt8] {
        Array("event: \(event)\ndata: \(data)\n\n".utf8)
    }

    /// A JSON string literal: one line whatever the message holds, as an SSE data line must be.
    private static func json(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One client's event stream; its state is guarded by the hub's lock.
final class EventStream: @unchecked Sendable {
    // Strong: the hub drops its reference in `remove`, which every stream ends with.
    let hub: EventHub
    var pending: [UInt8] = []
    var isCancelled = false

    init(hub: EventHub) {
        self.hub = hub
    }
}
