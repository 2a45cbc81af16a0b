import CZlib

struct GunzipError: Error {}

/// Decompresses a gzip body (the server never needs to; the tests check its output).
func gunzip(_ input: [UInt8]) throws -> [UInt8] {
    // zlib points back at its stream: keep it at one address (heap), as Gzip.compress does.
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
    guard inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw GunzipError()
    }
    defer { inflateEnd(stream) }
    var input = input
    var output = [UInt8](repeating: 0, count: 1 << 20)
    let status = input.withUnsafeMutableBufferPointer { inputBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = uInt(inputBuffer.count)
            stream.pointee.next_out = outputBuffer.baseAddress
            stream.pointee.avail_out = uInt(outputBuffer.count)
            return inflate(stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else { throw GunzipError() }
    return Array(output[..<Int(stream.pointee.total_out)])
}
