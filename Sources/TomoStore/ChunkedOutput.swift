/// A buffer that is passed on to the sink whenever it holds a chunk.
struct ChunkedOutput<Sink: ByteSink> {
    static var chunkSize: Int { 1 << 18 }

    var buffer: [UInt8] = []
    var sink: Sink

    init(sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    mutating func flushIfFull() throws(Sink.Failure) {
        if buffer.count >= Self.chunkSize { try flush() }
    }

    mutating func flush() throws(Sink.Failure) {
        let result: Result<Void, Sink.Failure> = buffer.withUnsafeBytes { bytes in Result { () throws(Sink.Failure) in try sink.write(bytes) } }
        try result.get()
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func writeDirectly(_ bytes: ArraySlice<UInt8>) throws(Sink.Failure) {
        try flush()
        let result: Result<Void, Sink.Failure> = bytes.withUnsafeBytes { bytes in Result { () throws(Sink.Failure) in try sink.write(bytes) } }
        try result.get()
    }
}
