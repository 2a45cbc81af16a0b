/// A file made ready to serve (its bytes stored as a blob, its record made), on the thread that
/// made it: `PreviewServer.servedFile(path:bytes:)`. `tomo serve` makes each page into one as it
/// is rendered, so the bytes of a large site are on disk, not in the process.
public struct ServedFile: Sendable {
    /// Nil when the bytes could not be stored: the file is then not served.
    let prepared: PreparedFile?

    /// `bytes` stored in `store`, for `path` (which decides the content type); `writtenLater`
    /// as `BlobStore.putLater`.
    init(path: String, bytes: [UInt8], store: BlobStore, writtenLater: Bool = false) {
        prepared = PreparedFile(path: path, bytes: bytes, store: store, writtenLater: writtenLater)
    }

    init(prepared: PreparedFile?) {
        self.prepared = prepared
    }

    /// Whether its bytes were stored (false: a full disk; the file answers 404 until a build
    /// stores it).
    public var isStored: Bool { prepared != nil }
}

extension ServedSite {
    /// Every file stored in `store` and made ready to serve.
    func servedFiles(in store: BlobStore) -> [String: ServedFile] {
        var served: [String: ServedFile] = [:]
        served.reserveCapacity(files.count)
        for (path, bytes) in files { served[path] = ServedFile(path: path, bytes: bytes, store: store) }
        return served
    }
}
