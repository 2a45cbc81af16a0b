import Foundation
import TomoCore

/// One file of a published snapshot: which blob of the store holds its bytes, and how it is
/// sent. A few dozen bytes whatever the file's size; each request opens the blob and MHD sends
/// it from the descriptor.
///
/// The gzip form is made on the first request that accepts it, not when the snapshot is
/// published: a rebuild that changes hundreds of pages then goes live without compressing them.
final class PreparedFile: Sendable {
    let blob: BlobName
    private let store: BlobStore
    let contentType: String
    /// Whether responses vary with Accept-Encoding (text types, which may get a gzip form).
    let isCompressible: Bool
    /// Whether the blob was left by an earlier preview (checked before it is served).
    private let isKept: Bool

    /// `path` (below the site root) decides the content type; `isKept` says the blob was left
    /// by an earlier preview and is checked before it is first served.
    init(path: String, blob: BlobName, store: BlobStore, isKept: Bool = false) {
        let type = ContentType.of(path: path)
        self.blob = blob
        self.store = store
        contentType = type.value
        isCompressible = type.compressible
        self.isKept = isKept
    }

    /// Nil when the bytes cannot be stored (a full disk): the file is then not served.
    /// `writtenLater`: the blob's file is written soon on another thread (`BlobStore.putLater`).
    convenience init?(path: String, bytes: [UInt8], store: BlobStore, writtenLater: Bool = false) {
        guard let blob = writtenLater ? store.putLater(bytes) : store.put(bytes) else { return nil }
        self.init(path: path, blob: blob, store: store)
    }

    /// Its strong ETag: the content hash and the length, so a content change changes it.
    var etag: String { "\"\(blob.text)\"" }
    /// The gzip form's ETag (text types only).
    var gzipETag: String? { isCompressible ? "\"\(blob.text)-gzip\"" : nil }

    /// Whether its bytes can be served: always for files this server stored; for a kept
    /// snapshot's, once its blob is found to hold what its name says (a damaged or missing blob
    /// is never served).
    var isIntact: Bool {
        !isKept || store.isIntactKept(blob)
    }

    private var headers: [(String, String)] {
        [("Content-Type", contentType), ("Cache-Control", "no-cache")] + (isCompressible ? [("Vary", "Accept-Encoding")] : [])
    }

    /// The ETag and body length of the form a client that does or does not accept gzip gets:
    /// the gzip form's when gzip makes the file smaller (the form is made then, once).
    func representation(acceptsGzip: Bool) -> (etag: String, size: Int) {
        if acceptsGzip, let gzipETag, let size = store.gzipSize(of: blob) { return (gzipETag, size) }
        return (etag, blob.size)
    }

    /// A response sending the file (gzipped for a client that accepts it, when that helps),
    /// made for one request; nil when the blob cannot be opened or MHD is out of memory.
    func response(acceptsGzip: Bool) -> HTTPResponse? {
        if acceptsGzip, let gzipETag, let (descriptor, size) = store.gzipped(blob) {
            return HTTPResponse(file: descriptor, size: size,
                                headers: headers + [("Content-Encoding", "gzip"), ("ETag", gzipETag)])
        }
        if let bytes = store.unwrittenBytes(blob) {
            return HTTPResponse(bytes: bytes, headers: headers + [("ETag", etag)])
        }
        guard let descriptor = store.open(blob) else { return nil }
        return HTTPResponse(file: descriptor, size: blob.size, headers: headers + [("ETag", etag)])
    }

    /// A `304 Not Modified` for a client whose If-None-Match names the form it would get
    /// (`acceptsGzip` decides which), or nil when it names none: the gzip form's tag does not
    /// revalidate the plain bytes, nor the other way round (RFC 9110 §13.1.2: the selected
    /// representation). Nil too when MHD is out of memory.
    func notModifiedResponse(ifNoneMatch header: String, acceptsGzip: Bool) -> HTTPResponse?? {
        let form = representation(acceptsGzip: acceptsGzip)
        let named = header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }  // If-None-Match compares weakly
            return tag == "*" || tag == form.etag
        }
        guard named else { return nil }
        var headers = [("ETag", form.etag), ("Cache-Control", "no-cache")]
        if isCompressible { headers.append(("Vary", "Accept-Encoding")) }
        return .some(HTTPResponse(headOnly: form.size, headers: headers))
    }
}
