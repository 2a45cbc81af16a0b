/// The served site with every file prepared. The server keeps one and changes it in place under
/// its lock; a request copies it (a reference to the same storage) and looks files up without
/// locks. A publish while a request holds a copy leaves that request its old files.
struct PreparedSite: Sendable {
    private var files: [String: PreparedFile] = [:]

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

    init() {}

    /// A site of these files (the last path of several the same wins).
    init(_ files: [(path: String, file: PreparedFile)]) {
        self.files.reserveCapacity(files.count)
        for (path, file) in files { self.files[Self.normalized(path)] = file }
    }

    /// The blob of every file (several times when files share one).
    var blobs: [BlobName] { files.values.map(\.blob) }

    /// A site of `files` replacing `previous`, with what changed.
    static func replacing(_ previous: PreparedSite, with files: [String: ServedFile]) -> (PreparedSite, Publish) {
        var site = PreparedSite()
        site.files.reserveCapacity(files.count)
        var changed: [String] = []
        for (rawPath, served) in files {
            guard let file = served.prepared else { continue }
            let path = normalized(rawPath)
            // The new record even for the same bytes: it is known intact, a kept one may not be.
            site.files[path] = file
            if previous.files[path]?.blob != file.blob { changed.append(path) }
        }
        let removed = previous.files.keys.filter { site.files[$0] == nil }
        let publish = Publish(changes: SiteChanges(paths: (changed + removed).sorted()),
                              released: previous.blobs, taken: site.blobs)
        return (site, publish)
    }

    /// Puts `changed` in (leaving out files whose bytes are what is already served) and takes
    /// `removed` out, in place: a publish after a small rebuild costs the changed files only,
    /// whatever the site's size.
    mutating func apply(_ changed: [String: ServedFile], removed: Set<String>) -> Publish {
        var publish = Publish(changes: SiteChanges(paths: []), released: [], taken: [])
        var paths: [String] = []
        for (rawPath, served) in changed {
            guard let file = served.prepared else { continue }
            let path = Self.normalized(rawPath)
            let old = files[path]
            if old?.blob == file.blob { continue }
            files[path] = file
            if let old { publish.released.append(old.blob) }
            publish.taken.append(file.blob)
            paths.append(path)
        }
        for path in removed {
            guard let old = files.removeValue(forKey: Self.normalized(path)) else { continue }
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
            return files[path + "index.html"].map(Resolution.file) ?? .notFound
        }
        if let file = files[path] { return .file(file) }
        return files[path + "/index.html"] == nil ? .notFound : .addSlash
    }

    /// The site's own not-found page, when it has one.
    var notFoundPage: PreparedFile? { files["404.html"] }

    /// Every path and the blob it is served from (what the manifest records).
    var entries: some Sequence<(path: String, blob: BlobName)> {
        files.lazy.map { ($0.key, $0.value.blob) }
    }

    var count: Int { files.count }

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
