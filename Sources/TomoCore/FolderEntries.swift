import Foundation

/// Why a folder could not be listed. A folder that cannot be read is never the same as an
/// empty one: read as empty, it would make a build delete the pages of what it holds.
public struct FolderFailure: Error, Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// Nothing at that path.
        case missing
        /// A file (or anything but a folder) where a folder should be.
        case notAFolder
        /// The folder, or the entry `entry` in it, exists but cannot be read (`errno`).
        case unreadable(errno: Int32)
    }

    public var reason: Reason
    /// The entry of the folder that could not be read; nil when the folder itself could not.
    public var entry: String?

    public init(_ reason: Reason, entry: String? = nil) {
        self.reason = reason
        self.entry = entry
    }

    /// An entry `read` leaves out for its name.
    public enum RefusedName: Sendable {
        /// Not UTF-8 text: shown with U+FFFD for each byte that is not.
        case notUTF8(String)
        /// The same text as the name of another entry of the folder, in another Unicode form
        /// (`café` composed and decomposed): two files to the file system, one name to tomo,
        /// whose strings compare as text (and a crash where a table expected each name once).
        case sameText(String, as: String)
    }

    /// The problem of an entry `read` left out for its name, in the folder shown as `display`.
    public static func refused(_ name: RefusedName, folder display: String) -> Diagnostic {
        switch name {
        case .notUTF8(let shown):
            return FolderFailure(.unreadable(errno: EILSEQ), entry: shown).diagnostic(folder: display)
        case .sameText(let name, let other):
            let folder = display.hasSuffix("/") ? String(display.dropLast()) : display
            return Diagnostic("this name is the same text as \(other) beside it, written in another Unicode form (composed or decomposed), and tomo cannot tell the two apart: rename one of them", at: SourceLocation(file: folder + "/" + name, line: 1, column: 1))
        }
    }

    /// The failure as a problem of the site, naming the folder as `display` (`content/posts/alice`).
    public func diagnostic(folder display: String) -> Diagnostic {
        let folder = display.hasSuffix("/") ? String(display.dropLast()) : display
        switch reason {
        case .missing:
            return Diagnostic("this folder does not exist: create it", at: SourceLocation(file: folder + "/", line: 1, column: 1))
        case .notAFolder:
            return Diagnostic("this is a file, but Tomo reads a folder here (\(folder)/): move the file away and make a folder of that name", at: SourceLocation(file: folder, line: 1, column: 1))
        case .unreadable(let code):
            let reason = String(cString: strerror(code))
            if code == EILSEQ, let entry {
                return Diagnostic("this name is not UTF-8 text, so tomo cannot read it as a name (shown with \u{FFFD} for each byte it cannot read): rename it, or move it out of the site", at: SourceLocation(file: folder + "/" + entry, line: 1, column: 1))
            }
            if code == ELOOP {
                return Diagnostic("this is a loop of symbolic links (\(reason)): point the link at a file or folder inside the site, or remove it", at: SourceLocation(file: entry.map { folder + "/" + $0 } ?? folder, line: 1, column: 1))
            }
            if let entry {
                return Diagnostic("cannot read this (\(reason)): make it readable, or remove it", at: SourceLocation(file: folder + "/" + entry, line: 1, column: 1))
            }
            return Diagnostic("cannot read this folder (\(reason)): make it readable (chmod u+rx \(folder)), or move it away", at: SourceLocation(file: folder + "/", line: 1, column: 1))
        }
    }
}

/// The entries of a folder with their status, read with `readdir` and `fstatat` (no path is
/// resolved from the root for each entry). `.` and `..` are left out, and hidden names unless
/// asked for. Every site input folder is listed here, so "cannot be read" is told apart from
/// "does not exist" and from "empty" in one place.
public enum FolderEntries {
    public typealias Entry = (name: String, status: stat)

    /// The entries of the folder at `path`, or why there are none. An entry that vanishes while
    /// the folder is read is left out; any other entry whose status cannot be read (a link to
    /// nothing, a loop of links) fails the listing. A name that is not UTF-8 cannot be a name
    /// tomo reads (as text it no longer opens the file), nor can the second of two names that
    /// are one text in two Unicode forms: each is left out and handed to `refusedName`.
    public static func read(_ path: String, followingLinks: Bool, includingHidden: Bool = false, refusedName: (FolderFailure.RefusedName) -> Void = { _ in }) throws(FolderFailure) -> [Entry] {
        guard let directory = opendir(path) else {
            let code = errno
            switch code {
            case ENOENT: throw FolderFailure(.missing)
            case ENOTDIR: throw FolderFailure(.notAFolder)
            default: throw FolderFailure(.unreadable(errno: code))
            }
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [Entry] = []
        // Two names are one text in two forms only if one is not ASCII.
        var namesNotASCII: Set<String> = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                // readdir gives nil at the end and on a failure; only the failure sets errno.
                if errno != 0 { throw FolderFailure(.unreadable(errno: errno)) }
                return entries
            }
            // Validated where readdir left it: every entry of every input folder passes here
            // (220,000 at 10,000 users), so no copy of its bytes is made first.
            let name: String? = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                let bytes = buffer.prefix(while: { $0 != 0 })
                if let name = String(validating: bytes, as: UTF8.self) { return name }
                if bytes.first != UInt8(ascii: ".") || includingHidden { refusedName(.notUTF8(String(decoding: bytes, as: UTF8.self))) }
                return nil
            }
            guard let name else { continue }
            if name == "." || name == ".." || (!includingHidden && name.hasPrefix(".")) { continue }
            if name.utf8.contains(where: { $0 >= 0x80 }), case (false, let other) = namesNotASCII.insert(name) {
                refusedName(.sameText(name, as: other))
                continue
            }
            var status = stat()
            if fstatat(descriptor, name, &status, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 {
                entries.append((name, status))
                continue
            }
            let code = errno
            // Gone since readdir saw it (and not a link to nothing, which lstat still finds).
            if code == ENOENT, fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) != 0 { continue }
            throw FolderFailure(.unreadable(errno: code), entry: name)
        }
    }

    /// The entries of the folder, or nil when it cannot be listed: only for folders Tomo itself
    /// writes (the output), where nothing is lost by skipping what cannot be read.
    public static func list(_ path: String, followingLinks: Bool, includingHidden: Bool = false) -> [Entry]? {
        try? read(path, followingLinks: followingLinks, includingHidden: includingHidden)
    }

    /// The entries of the site's input folder `relative` (`content/users`) under `site`, sorted
    /// by name, links followed under the site's rule (`SiteLinks`): none when it does not exist;
    /// none and an error naming it when it cannot be read, is not a folder or is reached through
    /// a link the rule refuses; each entry that is such a link left out, with an error naming it.
    /// What every content loader lists its folders with.
    public static func input(_ relative: String, in site: String, problems: inout [Diagnostic]) -> [Entry] {
        let links = SiteLinks(site: site)
        if let problem = links.problem(onPathOf: relative) {
            problems.append(problem)
            return []
        }
        do {
            return try read(site + "/" + relative, display: relative, links: links, includingHidden: false, problems: &problems).sorted { $0.name < $1.name }
        } catch {
            if error.reason != .missing { problems.append(error.diagnostic(folder: relative)) }
            return []
        }
    }

    /// The entries of the folder at `path` (shown as `display`), each link replaced by what it
    /// leads to: with `links`, a link that rule refuses is left out with an error naming it, and
    /// so, always, is a link that leads nowhere or loops.
    private static func read(_ path: String, display: String, links: SiteLinks?, includingHidden: Bool, problems: inout [Diagnostic]) throws(FolderFailure) -> [Entry] {
        var entries: [Entry] = []
        var followed: Set<String> = []
        let read = try read(path, followingLinks: false, includingHidden: includingHidden) { name in
            problems.append(FolderFailure.refused(name, folder: display))
        }
        for (name, status) in read {
            guard status.isLink else {
                entries.append((name, status))
                continue
            }
            if let problem = links?.problem(ofLink: display.isEmpty ? name : display + "/" + name) {
                problems.append(problem)
                continue
            }
            var target = stat()
            if stat(path + "/" + name, &target) == 0 {
                entries.append((name, target))
                followed.insert(name)
            } else {
                problems.append(FolderFailure(.unreadable(errno: errno), entry: name).diagnostic(folder: display))
            }
        }
        if !followed.isEmpty, display == SiteLinks.contentFolder || display.hasPrefix(SiteLinks.contentFolder + "/") {
            entries = withoutSecondNames(entries, followed: followed, display: display, problems: &problems)
        }
        return entries
    }

    /// `entries` without the links of a content folder that lead where another entry of it is
    /// (`content/posts/bob` and `content/posts/mallory` both links to `shared/bob`): a post read
    /// under two names is two posts, and what is said of one (a moderator's hidden mark) is not
    /// said of the other. Each is an error; the entry that is no link, or else the first link by
    /// name, stays. Images may have two names (a photo two posts of a folder show).
    private static func withoutSecondNames(_ entries: [Entry], followed: Set<String>, display: String, problems: inout [Diagnostic]) -> [Entry] {
        var holders: [[UInt64]: [String]] = [:]
        for (name, status) in entries where !ImageFileNames.isImage(name) {
            holders[[UInt64(status.st_dev), UInt64(status.st_ino)], default: []].append(name)
        }
        var refused: Set<String> = []
        for names in holders.values where names.count > 1 {
            let kept = names.first { !followed.contains($0) } ?? names.min() ?? ""
            for name in names.sorted() where name != kept && followed.contains(name) {
                refused.insert(name)
                problems.append(Diagnostic(
                    "this is a symbolic link to the file or folder that \(display)/\(kept) is too, and every content file is read under one name only (under two, a post would be two posts, and hiding one would leave the other published): keep one of the two names (copy the file or folder if both are meant)",
                    at: SourceLocation(file: display + "/" + name, line: 1, column: 1)
                ))
            }
        }
        return refused.isEmpty ? entries : entries.filter { !refused.contains($0.name) }
    }

    /// Whether the site's file `relative` (`content/posts/alice/sunset.md`) exists, links
    /// followed under the site's rule; an error naming it when that cannot be told (a folder on
    /// the way cannot be read, a loop of links) or a link on its way leads out of the site,
    /// which is not the same as the file being gone.
    public static func exists(_ relative: String, in site: String) throws(Diagnostic) -> Bool {
        if let problem = SiteLinks(site: site).problem(onPathOf: relative) { throw problem }
        var status = stat()
        if stat(site + "/" + relative, &status) == 0 { return true }
        let code = errno
        if code == ENOENT || code == ENOTDIR { return false }
        let slash = relative.lastIndex(of: "/")
        let folder = slash.map { String(relative[..<$0]) } ?? "."
        let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
        throw FolderFailure(.unreadable(errno: code), entry: name).diagnostic(folder: folder)
    }

    /// Where the symbolic link at `path` points, when nothing is there ("nothing" when the link
    /// cannot be read); nil when `path` is no such link.
    public static func danglingLinkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.isLink, stat(path, &status) != 0 else { return nil }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "nothing"
    }

    /// The file that marks a folder `tomo build` writes (its output). A walk of the site's inputs
    /// (`files(under:…links:)`) does not read a folder holding it: an output inside `static/`, or
    /// reached from there by a link, would be published into itself, one level deeper each build.
    public static let outputMarker = ".tomo-output"

    /// Every file under the folder at `path` (anything but a folder), by path relative to it,
    /// sorted; hidden names left out unless asked for. Links are followed, each folder walked once (a loop of
    /// links ends), under the site's rule when `links` is given (`display` is then the folder's
    /// path in the site); without `followingLinks`, a link is neither walked nor listed. Nil and no
    /// problem when the folder does not exist; each folder that cannot be read, each link to
    /// nothing that is followed (or that `links` refuses), and with `links` each folder holding
    /// the `outputMarker`, is a problem, named as `display` + its relative path.
    public static func files(under path: String, display: String, followingLinks: Bool = true, includingHidden: Bool = false,
                             links: SiteLinks? = nil) -> (files: [String]?, problems: [Diagnostic]) {
        var files: [String] = []
        var problems: [Diagnostic] = []
        var walked: Set<[UInt64]> = []
        var top = stat()
        if stat(path, &top) == 0 { walked.insert([UInt64(top.st_dev), UInt64(top.st_ino)]) }
        // An explicit stack: a deep tree of folders must not deepen the call stack.
        var pending = [""]
        func shown(_ relative: String) -> String {
            display.isEmpty ? relative : relative.isEmpty ? display : display + "/" + relative
        }
        while let relative = pending.popLast() {
            let entries: [Entry]
            let folder = relative.isEmpty ? path : path + "/" + relative
            var marker = stat()
            if links != nil, lstat(folder + "/" + outputMarker, &marker) == 0 {
                problems.append(Diagnostic("this folder is an output of tomo build (it holds \(outputMarker)), and its files would be published again inside it: build into a folder outside content/, templates/ and static/ (tomo build --out DIR), or remove the link that leads here", at: SourceLocation(file: shown(relative) + "/", line: 1, column: 1)))
                continue
            }
            do {
                entries = followingLinks
                    ? try read(folder, display: shown(relative), links: links, includingHidden: includingHidden, problems: &problems)
                    : try read(folder, followingLinks: false, includingHidden: includingHidden) { name in
                        problems.append(FolderFailure.refused(name, folder: shown(relative)))
                    }
            } catch {
                if relative.isEmpty, error.reason == .missing { return (nil, []) }
                problems.append(error.diagnostic(folder: shown(relative)))
                continue
            }
            for (name, status) in entries {
                let child = relative.isEmpty ? name : relative + "/" + name
                if status.isFolder {
                    if walked.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted { pending.append(child) }
                } else {
                    // A FIFO or a device is listed too: whoever reads it refuses it by name
                    // (`RegularFile`), instead of a file left out without a word.
                    files.append(child)
                }
            }
        }
        return (files.sorted(), problems)
    }
}

extension stat {
    public var isFolder: Bool { (st_mode & S_IFMT) == S_IFDIR }
    public var isRegularFile: Bool { (st_mode & S_IFMT) == S_IFREG }
}
