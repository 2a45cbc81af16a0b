import TomoCore

/// A published snapshot with every file prepared; requests look files up here without locks
/// (the server swaps whole snapshots, never changes one).
final class PreparedSite: Sendable {
    private let files: FileTable
    /// The paths added, changed or removed compared with the snapshot this one replaced.
    let changes: SiteChanges

    /// What a request path leads to.
    enum Resolution {
        case file(PreparedFile)
        /// `/alice` when `alice/index.html` exists: the same path with a trailing slash.
        case addSlash
        case notFound
    }

    /// Prepares `site`, reusing the prepared files of `previous` whose bytes did not change, so
    /// a rebuild that touched three pages compresses three pages.
    init(_ site: ServedSite, reusing previous: PreparedSite?) {
        var files = FileTable()
        var changed: [String] = []
        for (rawPath, bytes) in site.files {
            let path = rawPath.hasPrefix("/") ? String(rawPath.drop(while: { $0 == "/" })) : rawPath
            if let old = previous?.files[path], old.body.hasSameBytes(as: bytes) {
                files[path] = old
            } else if let prepared = PreparedFile(path: path, bytes: bytes) {
                files[path] = prepared
                changed.append(path)
            }
        }
        let removed = previous.map { $0.files.paths.filter { files[$0] == nil } } ?? []
        self.files = files
        changes = SiteChanges(paths: (changed + removed).sorted())
    }

    /// `previous` with the files in `changed` prepared anew and those in `removed` dropped: a
    /// publish after a small rebuild costs the changed files only, whatever the site's size.
    init(updating previous: PreparedSite?, changed: [String: [UInt8]], removed: Set<String>) {
        var files = previous?.files ?? FileTable()
        var paths: [String] = []
        for (rawPath, bytes) in changed {
            let path = rawPath.hasPrefix("/") ? String(rawPath.drop(while: { $0 == "/" })) : rawPath
            if let old = files[path], old.body.hasSameBytes(as: bytes) { continue }
            if let prepared = PreparedFile(path: path, bytes: bytes) {
                files[path] = prepared
                paths.append(path)
            }
        }
        for path in removed where files.removeValue(forKey: path) != nil {
            paths.append(path)
        }
        self.files = files
        changes = SiteChanges(paths: paths.sorted())
    }

    /// The file a decoded path (no leading slash) names: `""` and folders (`alice/`) mean their
    /// `index.html`; there are no directory listings.
    func resolve(_ path: String) -> Resolution {
        if path.isEmpty || path.hasSuffix("/") {
            return files[path + "index.html"].map(Resolution.file) ?? .notFound
        }
        if let file = files[path] { return .file(file) }
        return files[path + "/index.html"] == nil ? .notFound : .addSlash
    }

    /// The site's own not-found page, when it has one.
    var notFoundPage: PreparedFile? { files["404.html"] }
}

/// Path → prepared file, in 256 dictionaries by a hash of the path: a snapshot made from the
/// previous one after a small rebuild copies only the dictionaries it changes (a few thousand
/// entries) instead of one dictionary of every file (hundreds of thousands on a large site).
private struct FileTable: Sendable {
    private static let shardCount = 256
    private var shards = [[String: PreparedFile]](repeating: [:], count: shardCount)

    private static func shard(of path: String) -> Int {
        Int(ContentHash.value(of: path.utf8) % UInt64(shardCount))
    }

    subscript(path: String) -> PreparedFile? {
        get { shards[Self.shard(of: path)][path] }
        set { shards[Self.shard(of: path)][path] = newValue }
    }

    @discardableResult
    mutating func removeValue(forKey path: String) -> PreparedFile? {
        shards[Self.shard(of: path)].removeValue(forKey: path)
    }

    var paths: [String] { shards.flatMap(\.keys) }
}
