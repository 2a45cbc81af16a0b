import Testing
@testable import TomoServer

/// A page that does not read its event stream (a background tab, a stalled client) is owed only
/// what it would act on: the last error shown (or none) and one reload, however many failed
/// saves there were meanwhile; the events it has begun to receive still arrive whole.
@Suite struct EventQueueTests {
    /// Everything `stream` holds now, read as its sender would, without waiting for more.
    static func drain(_ hub: EventHub, _ stream: EventStream) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !(stream.sending.isEmpty && stream.queued.isEmpty) {
            guard let count = buffer.withUnsafeMutableBytes({ hub.read(stream, into: $0) }) else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aStreamNotReadHoldsTheLastErrorAndOneReload() throws {
        let hub = EventHub(heartbeatInterval: .seconds(60))
        let stream = try #require(hub.open())
        let errors = (1...500).map { "error \($0): " + String(repeating: "x", count: 10_000) }
        for (number, error) in errors.enumerated() {
            hub.showError(error)
            hub.send(number.isMultiple(of: 2) ? .css : .page)
        }
        #expect(stream.queued.count == 2)
        let text = Self.drain(hub, stream)
        #expect(text.utf8.count < 11_000, "\(text.utf8.count) bytes")
        #expect(text.hasPrefix("retry: 1000\n\n"))
        #expect(text.contains("error 500: "))
        #expect(!text.contains("error 499: "))
        // A page reload makes a style-sheet reload needless, whatever came in between.
        #expect(text.contains("event: reload\ndata: page\n"))
        #expect(!text.contains("event: css"))
        hub.close()
    }

    @Test func eventsOfOtherKindsAreKeptInOrderAndAClearReplacesAnError() throws {
        let hub = EventHub(heartbeatInterval: .seconds(60))
        let stream = try #require(hub.open())
        _ = Self.drain(hub, stream)
        hub.send(.css)
        hub.showError("broken")
        hub.showError(nil)
        #expect(Self.drain(hub, stream) == "event: css\ndata: css\n\nevent: clear\ndata: \n\n")
        hub.send(.page)
        hub.send(.css)
        #expect(Self.drain(hub, stream) == "event: reload\ndata: page\n\n")
        hub.close()
    }

    /// An event begun is sent whole: one that comes meanwhile waits for it.
    @Test func anEventBegunIsFinishedBeforeTheNextOne() throws {
        let hub = EventHub(heartbeatInterval: .seconds(60))
        let stream = try #require(hub.open())
        _ = Self.drain(hub, stream)
        hub.showError(String(repeating: "a", count: 6000))
        var buffer = [UInt8](repeating: 0, count: 100)
        let first = try #require(buffer.withUnsafeMutableBytes { hub.read(stream, into: $0) })
        hub.showError("b")
        let rest = Self.drain(hub, stream)
        let text = String(decoding: buffer[..<first], as: UTF8.self) + rest
        #expect(text == "event: error\ndata: \"" + String(repeating: "a", count: 6000) + "\"\n\nevent: error\ndata: \"b\"\n\n")
        hub.close()
    }
}
