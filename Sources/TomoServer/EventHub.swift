import Foundation
import TomoCore

/// The open live-reload event streams and what to tell them.
///
/// Each stream's sender thread (thread-per-connection) blocks in `read` until there is an event,
/// a heartbeat is due or the hub closes; broadcasting queues the event on every stream. An event
/// replaces one of its kind that a stream has not begun to send (`EventStream.Event`): a page
/// that does not read its stream (a background tab, a stalled client) holds a few events, not
/// every error list of every failed save.
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
        stream.sending = Array("retry: 1000\n\n".utf8)
        if let currentError { stream.queue(.state(Self.encode(event: "error", data: Self.json(currentError)))) }
        streams[ObjectIdentifier(stream)] = stream
        return stream
    }

    func send(_ kind: ReloadKind) {
        switch kind {
        case .page: broadcast(.reload(Self.encode(event: "reload", data: "page"), page: true))
        case .css: broadcast(.reload(Self.encode(event: "css", data: "css"), page: false))
        }
    }

    /// Shows `message` in every open page, or hides the overlay when nil.
    func showError(_ message: String?) {
        condition.lock()
        currentError = message
        condition.unlock()
        broadcast(.state(message.map { Self.encode(event: "error", data: Self.json($0)) }
            ?? Self.encode(event: "clear", data: "")))
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
        while stream.sending.isEmpty && stream.queued.isEmpty && !isClosed && !stream.isCancelled {
            if !condition.wait(until: deadline) { break }
        }
        if isClosed || stream.isCancelled { return nil }
        if stream.sending.isEmpty {
            stream.sending = stream.queued.flatMap(\.bytes)
            stream.queued = []
        }
        // A comment line: ignored by EventSource, but keeps proxies and idle timers from
        // closing a quiet stream.
        if stream.sending.isEmpty { stream.sending = Array(": heartbeat\n\n".utf8) }
        let count = min(buffer.count, stream.sending.count)
        buffer.copyBytes(from: stream.sending[..<count])
        stream.sending.removeFirst(count)
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

    private func broadcast(_ event: EventStream.Event) {
        condition.lock()
        for stream in streams.values { stream.queue(event) }
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
    /// The bytes being sent: once an event is begun it is sent whole.
    var sending: [UInt8] = []
    /// Events not begun yet, at most one of each kind.
    var queued: [Event] = []
    var isCancelled = false

    /// An event as the stream sends it.
    enum Event {
        /// What the page shows over itself: an error, or none (`clear`). The last one is all a
        /// page needs.
        case state([UInt8])
        /// Reload the page, or only its style sheets (`page: false`); a page reload does both.
        case reload([UInt8], page: Bool)

        var bytes: [UInt8] {
            switch self {
            case .state(let bytes), .reload(let bytes, _): bytes
            }
        }
    }

    init(hub: EventHub) {
        self.hub = hub
    }

    /// Queues `event` in the place of the one of its kind not begun yet (a style-sheet reload
    /// adds nothing to a page reload).
    func queue(_ event: Event) {
        switch event {
        case .state:
            queued.removeAll { if case .state = $0 { true } else { false } }
        case .reload(_, let page):
            if queued.contains(where: { if case .reload(_, true) = $0 { true } else { false } }) { return }
            if page { queued.removeAll { if case .reload = $0 { true } else { false } } }
        }
        queued.append(event)
    }
}
