import Foundation
import TomoCore

/// Posts: `content/posts/<handle>/<slug>.md`, each with its photo beside it.
extension ContentLoader {
    /// Every post that loads (or only `handle`'s), sorted by id, and every problem of those post
    /// files (sorted), without reading the rest of the content: for commands that only need the
    /// posts (`tomo post list`, `tomo post rm`).
    public static func loadPosts(site: URL, of handle: String? = nil) -> (posts: [Post], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let handles = profileHandles(site: site, diagnostics: &diagnostics)
        let posts = loadPosts(site: site, handles: handles, only: handle, diagnostics: &diagnostics)
        return (posts.loaded, diagnostics.sorted(by: Diagnostic.isOrderedBefore))
    }

    /// Reads the one post `id` (`<handle>/<slug>`), for a rebuild that reloads only the file that
    /// changed. No post and no problem when its file does not exist.
    public static func loadPost(site: URL, id: String) -> (post: Post?, diagnostics: [Diagnostic]) {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return (nil, [Diagnostic("\(id.quotedValue) is not a post id: write it as HANDLE/SLUG, e.g. alice/sunset")]) }
        let (handle, slug) = (parts[0], parts[1])
        if let problem = Identifiers.handleProblem(handle) ?? Identifiers.slugProblem(slug) {
            return (nil, [Diagnostic("post \(id.quotedValue): \(problem)")])
        }
        do {
            guard try FolderEntries.exists(ContentPath.postFile(handle, slug + ".md"), in: site.path) else { return (nil, []) }
        } catch {
            return (nil, [error])
        }
        var diagnostics: [Diagnostic] = []
        let handles = profileHandles(site: site, diagnostics: &diagnostics)
        guard diagnostics.isEmpty else { return (nil, diagnostics) }
        if !handles.contains(handle) {
            return (nil, [missingProfile(handle)])
        }
        return readPost(site: site, handle: handle, fileName: "\(slug).md")
    }

    /// The posts of the folders whose handle is in `handles` (the users with a profile file),
    /// or of `only` that folder; the number of post files found, loaded or not.
    static func loadPosts(
        site: URL, handles: Set<String>, only: String? = nil, parsed: ParsedFiles? = nil, listings: FolderListings? = nil, diagnostics: inout [Diagnostic]
    ) -> (loaded: [Post], fileCount: Int) {
        let entries = self.entries(of: ContentPath.postsFolder, site: site, listings: listings, diagnostics: &diagnostics).filter { only == nil || $0.name == only }
        var toRead: [(handle: String, name: String)] = []
        var fileCount = 0
        // Listing 10,000 folders one after another took as long as reading their posts on both
        // cores: list them on every core too.
        let folders = entries.filter(\.isFolder).map(\.name)
        let folderNames = Dictionary(uniqueKeysWithValues: zip(folders, folders.concurrentMap { handle in
            var problems: [Diagnostic] = []
            let names = fileNames(in: ContentPath.postsFolder(of: handle), site: site, listings: listings, reading: .post, diagnostics: &problems)
            return (names: names, problems: problems)
        }))
        for entry in entries {
            let handle = entry.name
            guard entry.isFolder, let listing = folderNames[handle] else {
                // A file named for a user is their posts folder gone wrong, not a stray file.
                diagnostics.append(handles.contains(handle)
                    ? FolderFailure(.notAFolder).diagnostic(folder: ContentPath.postsFolder(of: handle))
                    : Diagnostic("ignored: posts live in content/posts/<handle>/<slug>.md", at: SourceLocation(file: ContentPath.postsFolder(of: handle), line: 1, column: 1), severity: .warning))
                continue
            }
            diagnostics += listing.problems
            let names = listing.names
            let isPost = names.map(isPostFile)
            let postCount = isPost.count { $0 }
            fileCount += postCount
            // Photos sit beside the posts; anything else is likely a mistake (`SUNSET.MD`).
            func ignored(_ name: String) -> Diagnostic {
                Diagnostic("ignored: a post folder holds <slug>.md posts and their photos", at: SourceLocation(file: ContentPath.postFile(handle, name), line: 1, column: 1), severity: .warning)
            }
            // A folder without posts (only photos left behind, or empty) names nobody's posts;
            // what else it holds is still said to be ignored.
            guard postCount > 0 else {
                diagnostics += names.filter { !ContentPath.isImage($0) }.map(ignored)
                continue
            }
            if let problem = Identifiers.handleProblem(handle) {
                diagnostics.append(Diagnostic("bad folder name: \(problem); the folder name is the handle of the user who posts", at: folderStart(handle)))
                continue
            }
            guard handles.contains(handle) else {
                diagnostics.append(missingProfile(handle))
                continue
            }
            for (name, isPost) in zip(names, isPost) {
                if isPost {
                    toRead.append((handle, name))
                } else if !ContentPath.isImage(name) {
                    diagnostics.append(ignored(name))
                }
            }
        }
        // In id order (`handle/slug`), so the posts come out sorted; independent of each other,
        // so read on every core. The folders and names come sorted, which nearly always is id
        // order already (not always: `a-b.md` comes before `a.md`, slug `a` before `a-b`).
        let ids = toRead.map { "\($0.handle)/\(ContentPath.baseName(of: $0.name))" }
        if !zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) {
            toRead = ids.indices.sorted { ids[$0] < ids[$1] }.map { toRead[$0] }
        }
        var loaded: [Post] = []
        for (post, found) in toRead.concurrentMap({ readPost(site: site, handle: $0.handle, fileName: $0.name, parsed: parsed) }) {
            if let post { loaded.append(post) }
            diagnostics += found
        }
        return (loaded, fileCount)
    }

    private static func readPost(site: URL, handle: String, fileName: String, parsed: ParsedFiles? = nil) -> (Post?, [Diagnostic]) {
        let file = ContentPath.postFile(handle, fileName)
        let slug = ContentPath.baseName(of: fileName)
        if let problem = Identifiers.slugProblem(slug) {
            return (nil, [Diagnostic("bad file name: \(problem); the file name is the post's slug", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        if case (.post(let post), let warnings)? = parsed?.parsed(file) { return (post, warnings) }
        // Only a post parsed anew needs its folder as a URL (100,000 of them were made for nothing).
        let folder = site.appendingPathComponent(ContentPath.postsFolder(of: handle))
        let reader = NodeReader()
        let post = read(folder.path + "/" + fileName, file: file, reader: reader).flatMap { PostReader(handle: handle, slug: slug, file: file, folder: folder, reader: reader).read($0) }
        if let post { parsed?.remember(.post(post), of: file, diagnostics: reader.diagnostics, checked: reader.checkedFiles) }
        return (post, reader.diagnostics)
    }

    /// The visibility of the post `handle/slug` (both valid) and whether it is a draft, as a
    /// build reads them from the front matter, without the rest of the post: nil and no problem
    /// when its file does not exist; nil and why when the front matter, its `visibility:` or its
    /// `draft:` cannot be read.
    public static func postStanding(site: URL, handle: String, slug: String) -> (standing: (visibility: Post.Visibility, isDraft: Bool)?, diagnostics: [Diagnostic]) {
        let file = ContentPath.postFile(handle, slug + ".md")
        let folder = site.appendingPathComponent(ContentPath.postsFolder(of: handle))
        let reader = NodeReader()
        guard let bytes = read(folder.path + "/" + slug + ".md", file: file, reader: reader) else {
            // Read first (the posts a batch likes nearly all exist); only a read that failed
            // asks whether the file is missing (no post) or cannot be read (an error).
            do {
                return try FolderEntries.exists(file, in: site.path) ? (nil, reader.diagnostics) : (nil, [])
            } catch {
                return (nil, [error])
            }
        }
        let standing = PostReader(handle: handle, slug: slug, file: file, folder: folder, reader: reader).standing(bytes)
        return (reader.diagnostics.contains { $0.severity == .error } ? nil : standing, reader.diagnostics)
    }

    /// How many post files (`.md`) `handle` has in `content/posts/<handle>/`: none without that
    /// folder; an error naming it when it cannot be read, which is not "no posts".
    public static func postFileCount(of handle: String, site: URL) throws(Diagnostic) -> Int {
        var problems: [Diagnostic] = []
        let entries = FolderEntries.input(ContentPath.postsFolder(of: handle), in: site.path, problems: &problems)
        if let problem = problems.first { throw problem }
        return entries.count { !$0.status.isFolder && isPostFile($0.name) }
    }

    static func isPostFile(_ name: String) -> Bool { ContentFileKind.post.extensions.contains(ContentPath.fileExtension(of: name)) }

    /// The handles that have a profile file (`content/users/<handle>.yaml` or `.json`).
    private static func profileHandles(site: URL, diagnostics: inout [Diagnostic]) -> Set<String> {
        let names = fileNames(in: ContentPath.usersFolder, site: site, reading: .profile, diagnostics: &diagnostics)
        return Set(names.filter { ContentPath.profileExtensions.contains(ContentPath.fileExtension(of: $0)) }.map(ContentPath.baseName))
    }

    private static func missingProfile(_ handle: String) -> Diagnostic {
        Diagnostic(
            "no profile \(ContentPath.profileFile(handle)) for these posts: add the user with `tomo user add \(handle)`, or move the posts to their owner's folder",
            at: folderStart(handle)
        )
    }

    private static func folderStart(_ handle: String) -> SourceLocation {
        SourceLocation(file: ContentPath.postsFolder(of: handle) + "/", line: 1, column: 1)
    }
}
