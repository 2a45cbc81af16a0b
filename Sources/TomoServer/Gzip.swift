import CZlib

/// gzip (RFC 1952) through zlib, for text files the server precompresses once per snapshot.
enum Gzip {
    /// The gzip form of `input`, or nil when zlib fails (the file is then served uncompressed).
    static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks deflate for a gzip header and trailer instead of zlib's.
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(input.count))) + 32
        var output = [UInt8](repeating: 0, count: capacity)
        let finished = output.withUnsafeMutableBufferPointer { outputBuffer -> Bool in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = outputBuffer.baseAddress
            stream.avail_out = uInt(outputBuffer.count)
            return deflate(&stream, Z_FINISH) == Z_STREAM_END
        }
        guard finished else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
