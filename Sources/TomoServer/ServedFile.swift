/// A file made ready to serve (its bytes copied where they never move, hashed, its response
/// built), on the thread that made it. `tomo serve` makes each page into one as it is rendered,
/// so the bytes of a large site are held once, by the server, instead of twice.
public struct ServedFile: Sendable {
    /// Nil only when libmicrohttpd is out of memory: the file is then not served.
    let prepared: PreparedFile?

    /// `path` (below the site root) decides the content type.
    public init(path: String, bytes: [UInt8]) {
        prepared = PreparedFile(path: path, bytes: bytes)
    }
}

extension ServedSite {
    /// Every file made ready to serve.
    var servedFiles: [String: ServedFile] {
        var served: [String: ServedFile] = [:]
        served.reserveCapacity(files.count)
        for (path, bytes) in files { served[path] = ServedFile(path: path, bytes: bytes) }
        return served
    }
}
