/// Where encoded bytes go: an array, or the store's temporary file.
protocol ByteSink {
    associatedtype Failure: Error
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(Failure)
}

struct ArraySink: ByteSink {
    var bytes: [UInt8] = []

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }
}
