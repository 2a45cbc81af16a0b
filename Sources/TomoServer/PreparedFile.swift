import Foundation

/// One file of a published snapshot, ready to send: its bytes, strong ETag, and the prebuilt
/// responses (plain, and gzip for text types), so a request only picks one and queues it.
final class PreparedFile: Sendable {
    let body: StableBytes
    let contentType: String
    /// Whether responses vary with Accept-Encoding (text types that got a gzip form).
    let isCompressible: Bool
    let etag: String
    let plain: HTTPResponse
    let gzipETag: String?
    let gzipped: HTTPResponse?

    /// Nil only when libmicrohttpd is out of memory.
    init?(path: String, bytes: [UInt8]) {
        let type = ContentType.of(path: path)
        body = StableBytes(bytes)
        contentType = type.value
        isCompressible = type.compressible
        let hash = Self.contentHash(body.bytes)
        etag = "\"\(hash)\""
        let common = [("Content-Type", type.value), ("Cache-Control", "no-cache"),
                      ("X-Content-Type-Options", "nosniff")]
        let vary = type.compressible ? [("Vary", "Accept-Encoding")] : []
        guard let plain = HTTPResponse(body: body, headers: common + vary + [("ETag", etag)]) else {
            return nil
        }
        self.plain = plain
        // Small or incompressible files stay plain: gzip would only add its header.
        if type.compressible, let compressed = Gzip.compress(body.bytes), compressed.count < bytes.count {
            let tag = "\"\(hash)-gzip\""
            gzipETag = tag
            gzipped = HTTPResponse(body: StableBytes(compressed),
                                   headers: common + vary + [("Content-Encoding", "gzip"), ("ETag", tag)])
        } else {
            gzipETag = nil
            gzipped = nil
        }
    }

    /// The response and ETag for a client that does or does not accept gzip.
    func representation(acceptsGzip: Bool) -> (response: HTTPResponse, etag: String) {
        if acceptsGzip, let gzipped, let gzipETag { return (gzipped, gzipETag) }
        return (plain, etag)
    }

    /// Whether an If-None-Match header names this file's current content (either encoding).
    func matches(ifNoneMatch header: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }  // If-None-Match compares weakly
            if tag == etag || tag == gzipETag { return true }
        }
        return false
    }

    /// FNV-1a (64 bit) of the bytes and their length: cheap, and a content change changes it.
    private static func contentHash(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}
