import Foundation
import TomoCore
import TomoYAML

/// Loads `content/site.yaml`, `content/users/*`, `content/pages/*.md` and `content/posts/*/*.md` of a site folder,
/// reading every file and collecting every problem before giving an answer.
public enum ContentLoader {
    /// `parsed`: profiles and posts kept from the last load, used for the files that did not
    /// change, and told what this load parsed (save it afterwards). `listings`: the folders as
    /// the walk that stamped the site found them, used instead of listing them again.
    public static func load(site: URL, parsed: ParsedFiles? = nil, listings: FolderListings? = nil) -> ContentLoadResult {
        var diagnostics: [Diagnostic] = []
        let config = loadConfig(site: site, diagnostics: &diagnostics)
        let profiles = loadProfiles(site: site, parsed: parsed, listings: listings, diagnostics: &diagnostics)
        let pages = loadPages(site: site, handles: Set(profiles.files.keys), listings: listings, diagnostics: &diagnostics)
        let posts = loadPosts(site: site, handles: Set(profiles.files.keys), parsed: parsed, listings: listings, diagnostics: &diagnostics)
        diagnostics += privateAddressProblems(in: posts.loaded, addresses: privateAddresses(of: profiles.loaded), site: site)
        return ContentLoadResult(
            content: config.map {
                SiteContent(config: $0, profiles: profiles.loaded.sorted { $0.handle < $1.handle }, pages: pages.loaded.sorted { $0.name < $1.name }, posts: posts.loaded)
            },
            diagnostics: diagnostics.sorted(by: Diagnostic.isOrderedBefore),
            profileFileCount: profiles.files.count,
            pageFileCount: pages.fileCount,
            postFileCount: posts.fileCount,
            profileFiles: profiles.files
        )
    }

    private static func loadConfig(site: URL, diagnostics: inout [Diagnostic]) -> SiteConfig? {
        let file = ContentPath.siteConfigFile
        if let problem = SiteLinks(site: site.path).problem(onPathOf: file) {
            diagnostics.append(problem)
            return nil
        }
        let reader = NodeReader()
        defer { diagnostics += reader.diagnostics }
        guard let root = parse(site.appendingPathComponent(file), file: file, reader: reader) else { return nil }
        let config = SiteConfigReader.read(root, reader: reader, content: site.appendingPathComponent("content"))
        return reader.hasErrors ? nil : config
    }

    private static func loadProfiles(site: URL, parsed: ParsedFiles?, listings: FolderListings?, diagnostics: inout [Diagnostic]) -> (loaded: [Profile], files: [String: String]) {
        let folder = site.appendingPathComponent(ContentPath.usersFolder)
        var fileOfHandle: [String: String] = [:]
        var toRead: [(url: URL, file: String, handle: String)] = []
        for name in fileNames(in: ContentPath.usersFolder, site: site, listings: listings, reading: .profile, diagnostics: &diagnostics) {
            let file = ContentPath.userFile(name)
            let start = SourceLocation(file: file, line: 1, column: 1)
            let url = folder.appendingPathComponent(name)
            let fileExtension = ContentPath.fileExtension(of: name)
            let handle = ContentPath.baseName(of: name)
            guard ContentPath.profileExtensions.contains(fileExtension) else {
                // Images beside the profiles are the profiles' business; anything else is likely a mistake.
                if ContentPath.isImage(name) { continue }
                let fix = fileExtension == "yml" ? "rename it to \(handle).yaml" : "profiles are <handle>.yaml or <handle>.json"
                diagnostics.append(Diagnostic("ignored: \(fix)", at: start, severity: .warning))
                continue
            }
            if let problem = Identifiers.handleProblem(handle) {
                diagnostics.append(Diagnostic("bad file name: \(problem); the file name is the user's handle", at: start))
                continue
            }
            if let other = fileOfHandle[handle] {
                diagnostics.append(Diagnostic("duplicate profile: \(other) and \(file) both define @\(handle): keep one of them", at: start))
                continue
            }
            fileOfHandle[handle] = file
            toRead.append((url, file, handle))
        }
        // Profiles are independent of each other: read them on every core.
        var loaded: [Profile] = []
        for (profile, found) in toRead.concurrentMap({ readProfile($0.url, file: $0.file, handle: $0.handle, usersFolder: folder, parsed: parsed) }) {
            if let profile { loaded.append(profile) }
            diagnostics += found
        }
        return (loaded, fileOfHandle)
    }

    /// Reads the one profile of `handle` (`content/users/<handle>.yaml` or `.json`), for a rebuild
    /// that reloads only the file that changed. No profile and no problem when neither file exists.
    public static func loadProfile(site: URL, handle: String) -> (profile: Profile?, diagnostics: [Diagnostic]) {
        let folder = site.appendingPathComponent(ContentPath.usersFolder)
        var files: [String] = []
        // In the order a whole load lists them (by name: `.json` before `.yaml`), so a duplicate
        // is reported at the same file as `tomo check` reports it.
        for name in ContentPath.profileExtensions.map({ "\(handle).\($0)" }).sorted() {
            do {
                if try FolderEntries.exists(ContentPath.userFile(name), in: site.path) { files.append(name) }
            } catch {
                return (nil, [error])
            }
        }
        guard let name = files.first else { return (nil, []) }
        let file = ContentPath.userFile(name)
        if files.count > 1 {
            let other = ContentPath.userFile(files[1])
            return (nil, [Diagnostic("duplicate profile: \(file) and \(other) both define @\(handle): keep one of them", at: SourceLocation(file: other, line: 1, column: 1))])
        }
        if let problem = Identifiers.handleProblem(handle) {
            return (nil, [Diagnostic("bad file name: \(problem); the file name is the user's handle", at: SourceLocation(file: file, line: 1, column: 1))])
        }
        return readProfile(folder.appendingPathComponent(name), file: file, handle: handle, usersFolder: folder)
    }

    private static func readProfile(_ url: URL, file: String, handle: String, usersFolder: URL, parsed: ParsedFiles? = nil) -> (Profile?, [Diagnostic]) {
        if case (.profile(let profile), let warnings)? = parsed?.parsed(file) { return (profile, warnings) }
        let reader = NodeReader()
        let root = ContentPath.fileExtension(of: file) == "json"
            ? parse(url, file: file, reader: reader, with: JSONProfileNodes.parse)
            : parse(url, file: file, reader: reader)
        let profile = root.flatMap { ProfileReader(handle: handle, file: file, usersFolder: usersFolder, reader: reader).read($0) }
        if let profile { parsed?.remember(.profile(profile), of: file, diagnostics: reader.diagnostics, checked: reader.checkedFiles) }
        return (profile, reader.diagnostics)
    }

    /// Every free page (sorted by name) and the pages' problems, without reading the rest of the
    /// content: for a rebuild after a page changed. `handles` are the users, whose names pages
    /// may not take.
    public static func loadPages(site: URL, handles: Set<String>) -> (pages: [Page], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let pages = loadPages(site: site, handles: handles, listings: nil, diagnostics: &diagnostics)
        return (pages.loaded.sorted { $0.name < $1.name }, diagnostics.sorted(by: Diagnostic.isOrderedBefore))
    }

    private static func loadPages(site: URL, handles: Set<String>, listings: FolderListings?, diagnostics: inout [Diagnostic]) -> (loaded: [Page], fileCount: Int) {
        let folder = site.appendingPathComponent(ContentPath.pagesFolder)
        var loaded: [Page] = []
        var fileCount = 0
        for fileName in fileNames(in: ContentPath.pagesFolder, site: site, listings: listings, reading: .page, diagnostics: &diagnostics) {
            let file = ContentPath.pageFile(fileName)
            let start = SourceLocation(file: file, line: 1, column: 1)
            let url = folder.appendingPathComponent(fileName)
            guard ContentPath.fileExtension(of: fileName) == "md" else {
                diagnostics.append(Diagnostic("ignored: free pages are <name>.md files", at: start, severity: .warning))
                continue
            }
            fileCount += 1
            let name = ContentPath.baseName(of: fileName)
            if let problem = nameProblem(name, handles: handles) {
                diagnostics.append(Diagnostic("bad page name: \(problem)", at: start))
                continue
            }
            let reader = NodeReader()
            if let bytes = read(url.path, file: file, reader: reader),
               let page = PageReader.read(bytes, name: name, file: file, reader: reader) {
                loaded.append(page)
            }
            diagnostics += reader.diagnostics
        }
        return (loaded, fileCount)
    }

    /// A page is published at `/<name>/`, the same place as a profile or the site's own pages.
    private static func nameProblem(_ name: String, handles: Set<String>) -> String? {
        if let problem = Identifiers.slugProblem(name) { return problem }
        if Identifiers.reservedWords.contains(name) { return "\(name.quotedValue) is reserved for the site's own pages: rename the file" }
        if handles.contains(name) { return "\(name.quotedValue) is also a user's handle and both would be /\(name)/: rename the file" }
        return nil
    }

    /// The file's nodes as YAML (`NodeReader.parseYAML`: with a duplicate key, still the
    /// tree, so that its other problems are told too), or through `parser` (JSON for `.json`
    /// profiles); nil after reporting why not.
    private static func parse(
        _ url: URL, file: String, reader: NodeReader,
        with parser: (([UInt8], String) throws(DiagnosticList) -> YAMLNode)? = nil
    ) -> YAMLNode? {
        guard let bytes = read(url.path, file: file, reader: reader) else { return nil }
        guard let parser else { return reader.parseYAML(bytes, file: file) }
        do {
            return try parser(bytes, file)
        } catch {
            reader.add(error.diagnostics)
            return nil
        }
    }

    static func read(_ path: String, file: String, reader: NodeReader) -> [UInt8]? {
        switch RegularFile.read(path) {
        case .success(let bytes):
            return bytes
        case .failure(let failure):
            reader.error("cannot read \(file): \(failure.reason)", at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
    }

    /// The entries of the content folder `relative` (`content/users`), sorted, without hidden
    /// files; none when the folder is missing, and none after reporting why when it cannot be
    /// read or is not a folder (so a build stops instead of deleting the pages it held). From
    /// `listings` when they kept the folder.
    static func entries(of relative: String, site: URL, listings: FolderListings?, diagnostics: inout [Diagnostic]) -> [FolderListings.Entry] {
        if let kept = listings?.entries(of: relative) { return kept }
        return FolderEntries.input(relative, in: site.path, problems: &diagnostics).map { FolderListings.Entry(name: $0.name, isFolder: $0.status.isFolder) }
    }

    /// The names of the files (not the sub-folders: a user's images) of a content folder. A
    /// sub-folder named as the files read there are (`alice.yaml/`, `about.md/`) is an error:
    /// skipped as a folder, the profile, page or post of that name would be gone in silence.
    static func fileNames(in relative: String, site: URL, listings: FolderListings? = nil, reading kind: ContentFileKind, diagnostics: inout [Diagnostic]) -> [String] {
        var names: [String] = []
        for entry in entries(of: relative, site: site, listings: listings, diagnostics: &diagnostics) {
            let name = entry.name
            guard entry.isFolder else {
                names.append(name)
                continue
            }
            if kind.extensions.contains(ContentPath.fileExtension(of: name)) {
                diagnostics.append(Diagnostic(
                    "this is a folder, but a file of this name is read as a \(kind.rawValue): rename the folder, or put the \(kind.rawValue) file in its place",
                    at: SourceLocation(file: "\(relative)/\(name)", line: 1, column: 1)
                ))
            } else if kind == .page {
                // Profiles and posts keep their images in folders; pages have none, so the
                // pages put in one would be gone in silence.
                diagnostics.append(Diagnostic(
                    "ignored: a folder in \(relative)/ is not read; free pages are the .md files directly in \(relative)/ (move its pages up)",
                    at: SourceLocation(file: "\(relative)/\(name)/", line: 1, column: 1), severity: .warning
                ))
            }
        }
        return names
    }
}

/// What the files of a content folder are read as, and the extensions that make them so.
enum ContentFileKind: String {
    case profile, page, post

    var extensions: Set<String> { self == .profile ? ContentPath.profileExtensions : Self.markdown }

    /// Made once: every post file of a load is checked against it.
    private static let markdown: Set<String> = ["md"]
}
