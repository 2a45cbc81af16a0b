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

    /// A site of `files`, keeping the prepared (compressed) form of those `previous` already
    /// served with the same bytes; with the paths that changed.
    static func replacing(_ previous: PreparedSite?, with files: [String: ServedFile]) -> (PreparedSite, SiteChanges) {
        var site = PreparedSite(files: [:])
        site.files.reserveCapacity(files.count)
        var changed: [String] = []
        for (rawPath, served) in files {
            guard let file = served.prepared else { continue }
            let path = normalized(rawPath)
            if let old = previous?.files[path], old.hasSameBytes(as: file) {
                site.files[path] = old
            } else {
                site.files[path] = file
                changed.append(path)
            }
        }
        let removed = previous.map { $0.files.keys.filter { site.files[$0] == nil } } ?? []
        return (site, SiteChanges(paths: (changed + removed).sorted()))
    }

    /// Puts `changed` in (leaving out files whose bytes are what is already served) and takes
    /// `removed` out, in place: a publish after a small rebuild costs the changed files only,
    /// whatever the site's size.
    mutating func apply(_ changed: [String: ServedFile], removed: Set<String>) -> SiteChanges {
        var paths: [String] = []
        for (rawPath, served) in changed {
            guard let file = served.prepared else { continue }
            let path = Self.normalized(rawPath)
            if let old = files[path], old.hasSameBytes(as: file) { continue }
            files[path] = file
            paths.append(path)
        }
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
