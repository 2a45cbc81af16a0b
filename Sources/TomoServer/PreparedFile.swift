import Foundation
import TomoCore

/// One file of a published snapshot, ready to send: its bytes, strong ETag, and the prebuilt
/// responses (plain, and gzip for text types), so a request only picks one and queues it.
///
/// The gzip form is made on the first request that accepts it, not when the snapshot is
/// published: a rebuild that changes hundreds of pages then goes live without compressing them.
final class PreparedFile: @unchecked Sendable {
    let body: StableBytes
    let contentType: String
    /// Whether responses vary with Accept-Encoding (text types, which may get a gzip form).
    let isCompressible: Bool
    let etag: String
    let plain: HTTPResponse
    /// The gzip form's ETag (text types only).
    let gzipETag: String?
    private let headers: [(String, String)]
    // Guarded by `gzipLock`: nil until the first gzip request, then the response or `.none`
    // when gzip does not make the file smaller.
    private let gzipLock = NSLock()
    private var gzipped: HTTPResponse??

    /// Nil only when libmicrohttpd is out of memory.
    init?(path: String, bytes: [UInt8]) {
        let type = ContentType.of(path: path)
        body = StableBytes(bytes)
        contentType = type.value
        isCompressible = type.compressible
        // The content hash and the length: a content change changes the ETag.
        var hasher = StableHasher()
        hasher.add(bytes: bytes)
        let hash = String(hasher.value, radix: 16) + "-" + String(body.count, radix: 16)
        etag = "\"\(hash)\""
        let common = [("Content-Type", type.value), ("Cache-Control", "no-cache")]
        let vary = type.compressible ? [("Vary", "Accept-Encoding")] : []
        guard let plain = HTTPResponse(body: body, headers: common + vary + [("ETag", etag)]) else {
            return nil
        }
        self.plain = plain
        headers = common + vary
        gzipETag = type.compressible ? "\"\(hash)-gzip\"" : nil
    }

    /// The gzip response, made once; nil for types that are not compressed and for files gzip
    /// does not make smaller (they stay plain: gzip would only add its header).
    private func gzipResponse() -> HTTPResponse? {
        guard let gzipETag else { return nil }
        gzipLock.lock()
        defer { gzipLock.unlock() }
        if let made = gzipped { return made }
        var response: HTTPResponse?
        if let compressed = Gzip.compress(body.bytes), compressed.count < body.count {
            response = HTTPResponse(body: StableBytes(compressed), headers: headers + [("Content-Encoding", "gzip"), ("ETag", gzipETag)])
        }
        gzipped = .some(response)
        return response
    }

    /// Whether `other` holds exactly these bytes (so a republished file keeps its gzip form).
    func hasSameBytes(as other: PreparedFile) -> Bool {
        etag == other.etag && body.hasSameBytes(as: other.body)
    }

    /// The response and ETag for a client that does or does not accept gzip.
    func representation(acceptsGzip: Bool) -> (response: HTTPResponse, etag: String) {
        if acceptsGzip, let gzipped = gzipResponse(), let gzipETag { return (gzipped, gzipETag) }
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
}
