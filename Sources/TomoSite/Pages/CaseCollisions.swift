/// Published paths that a host whose file names ignore letter case (macOS, Windows, some CDNs)
/// takes for one: two files (`INDEX.HTML`, `index.html`), or a file and a folder
/// (`Media` beside `media/alice/…`), of which it keeps only one. The same walk over the added
/// paths tells, letter for letter, which file a candidate would stand in the folder of
/// (`fileInside`); a file published twice is the plan's own check.
///
/// Made for a few paths to look for (`candidates`: the site's root static files) among many (a
/// plan's 467,086 at 10,000 users): a path is lowercased only when its length is one a
/// candidate's has once lowercased (lowercasing keeps an ASCII path's length), or when it is not
/// ASCII.
struct CaseCollisions {
    enum Other {
        case file(String)
        /// A folder, with a file in it.
        case folder(String, holding: String)
    }

    /// The lowercased candidates, and the folders they lie in.
    private let wanted: Set<String>
    private let lengths: Set<Int>
    /// Published files and folders by their lowercased path, as first added.
    private var files: [String: [String]] = [:]
    private var folders: [String: [(folder: String, holding: String)]] = [:]

    init(lookingFor candidates: some Sequence<String>) {
        var wanted: Set<String> = []
        for path in candidates {
            wanted.insert(path.lowercased())
            for folder in FolderNesting.folders(of: path) { wanted.insert(folder.lowercased()) }
        }
        self.wanted = wanted
        lengths = Set(wanted.map(\.utf8.count))
    }

    private func lowercasedIfWanted(_ path: some StringProtocol) -> String? {
        guard lengths.contains(path.utf8.count) || path.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        let lowercased = path.lowercased()
        return wanted.contains(lowercased) ? lowercased : nil
    }

    /// Notes a published file (and the folders it lies in).
    mutating func add(_ path: String) {
        if let key = lowercasedIfWanted(path), !(files[key] ?? []).contains(path) { files[key, default: []].append(path) }
        for folder in FolderNesting.folders(of: path) {
            guard let key = lowercasedIfWanted(folder) else { continue }
            let folder = String(folder)
            if !(folders[key] ?? []).contains(where: { $0.folder == folder }) { folders[key, default: []].append((folder, path)) }
        }
    }

    /// The first file added that lies in the folder `path` (a candidate), written exactly so:
    /// a file where a folder is needed, found by the same walk over the added paths.
    func fileInside(folder path: String) -> String? {
        folders[path.lowercased()]?.first { $0.folder == path }?.holding
    }

    /// What `path` (a candidate) is taken for, with the folder of `path` it happens at (`path`
    /// itself, or one of its folders); nil when nothing added differs from it only in case.
    func collision(of path: String) -> (at: String, with: Other)? {
        let key = path.lowercased()
        if let file = files[key]?.first(where: { $0 != path }) { return (path, .file(file)) }
        if let found = folders[key]?.first(where: { $0.folder != path }) { return (path, .folder(found.folder, holding: found.holding)) }
        for folder in FolderNesting.folders(of: path) {
            if let file = files[folder.lowercased()]?.first(where: { $0 != folder }) { return (String(folder), .file(file)) }
        }
        return nil
    }
}
