/// The served site with every file prepared. The server keeps one and changes it in place under
/// its lock; a request copies it (a reference to the same storage) and looks files up without
/// locks. A publish while a request holds a copy leaves that request its old files.
struct PreparedSite: Sendable {
    /// By path; a file whose bytes could not be stored (nil `prepared`) is not served.
    private var files: [String: ServedFile] = [:]
    /// Until the first publish replaces it, the snapshot a restarted preview serves (`files` is
    /// empty then), with the store its blobs are in.
    private var kept: (snapshot: KeptSnapshot, store: BlobStore)?

    /// What a request path leads to.
    enum Resolution {
        case file(PreparedFile)
        /// `/alice` when `alice/index.html` exists: the same path with a trailing slash.
        case addSlash
        case notFound
    }

    /// What a publish did: the paths that changed, and the blobs files stopped or started
    /// naming (the same blob may be in both, and several times: `BlobUses` counts them).
    struct Publish {
        var changes: SiteChanges
        var released: [BlobName]
        var taken: [BlobName]
    }

    /// Whether this is a site published, or kept by an earlier preview: false only for the
    /// site served before either (a first build runs), which has no file yet.
    private(set) var isPublished = false

    init() {}

    /// The snapshot an earlier preview kept, its blobs in `store`.
    init(kept snapshot: KeptSnapshot, store: BlobStore) {
        kept = (snapshot, store)
        isPublished = true
    }

    /// The blob of every file (several times when files share one).
    var blobs: [BlobName] {
        kept.map { $0.snapshot.blobs } ?? files.values.compactMap { $0.prepared?.blob }
    }

    /// A site of `files` replacing `previous`, with what changed. `files` becomes the site's
    /// table as it is when its paths need no change (as a build's do), so that a whole
    /// preview build's 467,086 files are not copied into a second table at its peak.
    static func replacing(_ previous: PreparedSite, with files: [String: ServedFile]) -> (PreparedSite, Publish) {
        var site = PreparedSite()
        site.isPublished = true
        if files.keys.allSatisfy({ !$0.hasPrefix("/") }) {
            site.files = files
        } else {
            site.files.reserveCapacity(files.count)
            for (path, served) in files { site.files[normalized(path)] = served }
        }
        var changed: [String] = []
        for (path, served) in site.files {
            // The new record even for the same bytes: it is known intact, a kept one may not be.
            guard let file = served.prepared else { continue }
            if previous.blob(at: path) != file.blob { changed.append(path) }
        }
        var removed: [String] = []
        previous.forEachEntry { path, _ in
            if site.files[path]?.prepared == nil { removed.append(path) }
        }
        let publish = Publish(changes: SiteChanges(paths: (changed + removed).sorted()),
                              released: previous.blobs, taken: site.blobs)
        return (site, publish)
    }

    /// Puts `changed` in (leaving out files whose bytes are what is already served) and takes
    /// `removed` out, in place: a publish after a small rebuild costs the changed files only,
    /// whatever the site's size.
    mutating func apply(_ changed: [String: ServedFile], removed: Set<String>) -> Publish {
        if let (snapshot, store) = kept {
            // A kept snapshot is replaced whole first; this makes it a table to change.
            kept = nil
            for (path, blob) in snapshot.entries {
                files[path] = ServedFile(prepared: PreparedFile(path: path, blob: blob, store: store, isKept: true))
            }
        }
        var publish = Publish(changes: SiteChanges(paths: []), released: [], taken: [])
        var paths: [String] = []
        for (rawPath, served) in changed {
            guard let file = served.prepared else { continue }
            let path = Self.normalized(rawPath)
            let old = files[path]?.prepared
            if old?.blob == file.blob { continue }
            files[path] = served
            if let old { publish.released.append(old.blob) }
            publish.taken.append(file.blob)
            paths.append(path)
        }
        for path in removed {
            guard let old = files.removeValue(forKey: Self.normalized(path))?.prepared else { continue }
            publish.released.append(old.blob)
            paths.append(path)
        }
        publish.changes = SiteChanges(paths: paths.sorted())
        return publish
    }

    /// The file a decoded path (no leading slash) names: `""` and folders (`alice/`) mean their
    /// `index.html`; there are no directory listings.
    func resolve(_ path: String) -> Resolution {
        if path.isEmpty || path.hasSuffix("/") {
            return file(at: path + "index.html").map(Resolution.file) ?? .notFound
        }
        if let file = file(at: path) { return .file(file) }
        return blob(at: path + "/index.html") == nil ? .notFound : .addSlash
    }

    /// The site's own not-found page, when it has one.
    var notFoundPage: PreparedFile? { file(at: "404.html") }

    /// Calls `body` with every path and the blob it is served from (what the manifest records).
    func forEachEntry(_ body: (String, BlobName) -> Void) {
        if let kept {
            for (path, blob) in kept.snapshot.entries { body(path, blob) }
        } else {
            for (path, served) in files {
                if let file = served.prepared { body(path, file.blob) }
            }
        }
    }

    /// How many files are served.
    var count: Int {
        kept?.snapshot.count ?? files.values.count { $0.prepared != nil }
    }

    private func file(at path: String) -> PreparedFile? {
        if let kept {
            return kept.snapshot.blob(at: path).map { PreparedFile(path: path, blob: $0, store: kept.store, isKept: true) }
        }
        return files[path]?.prepared
    }

    private func blob(at path: String) -> BlobName? {
        kept.map { $0.snapshot.blob(at: path) } ?? files[path]?.prepared?.blob
    }

    private static func normalized(_ path: String) -> String {
        path.hasPrefix("/") ? String(path.drop(while: { $0 == "/" })) : path
    }
}

/// How many files of the served snapshot name each blob: a blob no file names any more is
/// deleted once the snapshot that named it is replaced.
struct BlobUses {
    private var counts: [BlobName: Int] = [:]

    /// Counts `publish`; returns the blobs nothing names now.
    mutating func record(_ publish: PreparedSite.Publish) -> [BlobName] {
        for blob in publish.taken { counts[blob, default: 0] += 1 }
        var unused: [BlobName] = []
        for blob in publish.released {
            guard let count = counts[blob] else { continue }
            if count <= 1 {
                counts[blob] = nil
                unused.append(blob)
            } else {
                counts[blob] = count - 1
            }
        }
        return unused
    }
}
