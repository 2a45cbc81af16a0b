/// Published paths where one would be a folder of another: a file `x` and a file `x/y` cannot
/// both be written, so one of them would be lost (or the build would stop half way, at the
/// output). Both the root static folder and the theme's static files are checked with it,
/// before anything is written.
enum FolderNesting {
    /// The folders that hold `path`, nearest first: `a/b/c` → `a/b`, `a` (walked without a
    /// list: the plan of a large site has hundreds of thousands of paths).
    static func folders(of path: String) -> Folders { Folders(rest: Substring(path)) }

    struct Folders: Sequence, IteratorProtocol {
        var rest: Substring

        mutating func next() -> Substring? {
            guard let slash = rest.lastIndex(of: "/") else { return nil }
            rest = rest[..<slash]
            return rest
        }
    }

    /// Each path of `paths` that is a folder of another one → the first path found inside it.
    static func foldersTaken(by paths: some Sequence<String>, among candidates: Set<String>) -> [String: String] {
        var taken: [String: String] = [:]
        for path in paths {
            for folder in folders(of: path) where candidates.contains(String(folder)) && taken[String(folder)] == nil {
                taken[String(folder)] = path
            }
        }
        return taken
    }
}
