import CZlib

/// gzip (RFC 1952) through zlib, for text files the server precompresses once per snapshot.
enum Gzip {
    /// The gzip form of `input`, or nil when zlib fails (the file is then served uncompressed).
    static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8]? {
        // zlib keeps a pointer back to the stream and checks it on every call, so the stream must
        // stay at one address: heap memory, never a Swift local passed with `&` (which may be a
        // different temporary each time in an optimised build, corrupting memory).
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // windowBits 15 + 16 asks deflate for a gzip header and trailer instead of zlib's.
        let status = deflateInit2_(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { return nil }
        defer { deflateEnd(stream) }
        let capacity = Int(deflateBound(stream, uLong(input.count))) + 32
        var output = [UInt8](repeating: 0, count: capacity)
        let finished = output.withUnsafeMutableBufferPointer { outputBuffer -> Bool in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            stream.pointee.next_out = outputBuffer.baseAddress
            stream.pointee.avail_out = uInt(outputBuffer.count)
            return deflate(stream, Z_FINISH) == Z_STREAM_END
        }
        guard finished else { return nil }
        output.removeLast(Int(stream.pointee.avail_out))
        return output
    }
}
