import TomoCore

/// The served site with every file prepared. The server keeps one and changes it in place under
/// its lock; a request copies it (a reference to the same storage) and looks files up without
/// locks. A publish while a request holds a copy leaves that request its old files.
struct PreparedSite: Sendable {
    private var files: [String: PreparedFile]

    /// What a request path leads to.
    enum Resolution {
        case file(PreparedFile)
        /// `/alice` when `alice/index.html` exists: the same path with a trailing slash.
        case addSlash
        case notFound
    }

    /// The files of `site` prepared, reusing those of `previous` whose bytes did not change, so
    /// a republish that changed three pages compresses three pages; with the paths that changed.
    /// Each file leaves `site` as it is prepared: when the caller holds the only reference to its
    /// files, their bytes are freed one by one instead of after the whole site was copied.
    static func prepare(emptying site: inout ServedSite, reusing previous: PreparedSite?) -> (PreparedSite, SiteChanges) {
        var files: [String: PreparedFile] = [:]
        files.reserveCapacity(site.files.count)
        var changed: [String] = []
        while let (rawPath, bytes) = site.files.popFirst() {
            let path = normalized(rawPath)
            if let old = previous?.files[path], old.body.hasSameBytes(as: bytes) {
                files[path] = old
            } else if let prepared = PreparedFile(path: path, bytes: bytes) {
                files[path] = prepared
                changed.append(path)
            }
        }
        let removed = previous.map { $0.files.keys.filter { files[$0] == nil } } ?? []
        return (PreparedSite(files: files), SiteChanges(paths: (changed + removed).sorted()))
    }

    /// `changed` prepared, leaving out files whose bytes are what `self` already serves.
    func prepare(changed: [String: [UInt8]]) -> [String: PreparedFile] {
        // On all cores: hashing and copying a few hundred changed pages is on the way from a
        // save to the reload.
        let made = Array(changed).concurrentMap { rawPath, bytes -> (String, PreparedFile?) in
            let path = Self.normalized(rawPath)
            if let old = files[path], old.body.hasSameBytes(as: bytes) { return (path, nil) }
            return (path, PreparedFile(path: path, bytes: bytes))
        }
        var prepared: [String: PreparedFile] = [:]
        for case (let path, let file?) in made { prepared[path] = file }
        return prepared
    }

    /// Puts `prepared` in and takes `removed` out, in place: a publish after a small rebuild
    /// costs the changed files only, whatever the site's size.
    mutating func apply(_ prepared: [String: PreparedFile], removed: Set<String>) -> SiteChanges {
        var paths = Array(prepared.keys)
        for (path, file) in prepared { files[path] = file }
        for path in removed where files.removeValue(forKey: Self.normalized(path)) != nil {
            paths.append(path)
        }
        return SiteChanges(paths: paths.sorted())
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

    private static func normalized(_ path: String) -> String {
        path.hasPrefix("/") ? String(path.drop(while: { $0 == "/" })) : path
    }
}
