import Foundation

/// The one rule for symbolic links among a site's inputs, the files and folders under
/// `content/`, `templates/` and `static/`: a link whose target stays inside the site folder is
/// followed, and read, stamped and watched as its target; a link that leads out of the site,
/// into a hidden file or folder of it (`.tomo-cache`), into `content/` (whose files are read
/// under their own names only), or into a loop, is an error at the link. Followed blindly, a link would publish files from anywhere
/// on the machine (and edits there would go unseen); a loop would be read without end.
///
/// Every listing of an input folder applies it to each link it meets (`FolderEntries.input`,
/// `FolderEntries.files(under:…links:)`), and every single input file read by its path to the
/// parts of that path (`problem(onPathOf:)`).
public struct SiteLinks: Sendable {
    /// The site folder, as the paths of its files start (`/home/me/site`).
    public let site: String

    public init(site: String) {
        self.site = site
    }

    /// Why the link at `relative` (`content/posts/alice`) may not be followed; nil when it leads
    /// inside the site, or to nothing (whoever reads it reports that).
    public func problem(ofLink relative: String) -> Diagnostic? {
        let path = site + "/" + relative
        let location = SourceLocation(file: relative, line: 1, column: 1)
        guard let target = Self.realPath(path) else {
            return errno == ELOOP ? FolderFailure(.unreadable(errno: ELOOP)).diagnostic(folder: relative) : nil
        }
        guard let root = Self.realPath(site), Self.isInside(target, root) else {
            return Diagnostic("this is a symbolic link to \(target), outside the site, and only what is inside the site folder is read: move or copy it into the site folder (and link to it there)", at: location)
        }
        // Hidden files are never inputs (`.tomo-cache` holds the private fields tomo parsed, `.git`
        // the site's history): a link does not make them one.
        if let hidden = target.dropFirst(root.count).split(separator: "/").first(where: { $0.hasPrefix(".") }) {
            return Diagnostic("this is a symbolic link to \(target), which lies in \(hidden), a hidden part of the site that tomo never reads or publishes: point it elsewhere, or remove it", at: location)
        }
        if let folder = Self.realPath((path as NSString).deletingLastPathComponent), Self.isInside(folder, target) {
            return Diagnostic("this is a symbolic link to \(target), a folder that holds the link itself, a loop that would be read without end: point it at another folder, or remove it", at: location)
        }
        // `content` itself may lead anywhere in the site but into (or around) the folders that
        // are published as they are: there, every content file would be published.
        if relative == Self.contentFolder {
            for folder in Self.publishedFolders {
                guard let published = Self.realPath(site + "/" + folder), Self.isInside(target, published) || Self.isInside(published, target) else { continue }
                return Diagnostic("this is a symbolic link to \(target), \(Self.isInside(target, published) ? "inside" : "which holds") the site's \(folder)/, whose files are published as they are: every content file would be published (the store's reports, private posts and their original photos): point it at a folder outside \(folder)/", at: location)
            }
        }
        // Every content file is read under its own name only. Through a link from elsewhere in
        // content/ it would be read again under another (a post hidden as bob/spam published as
        // alice/spam, as a page too); from static/ or templates/ it would be published as it is
        // (the store's reports, a private post's text and original photo). `content` itself may
        // be a link, and so may an image in content/ that leads to an image file there: images
        // are held to a narrower rule (`ContentLoader`: inside the user's or the post's folder),
        // and a post's photo shown by another post of the same folder is that folder's own.
        if relative != Self.contentFolder, let content = Self.realPath(site + "/" + Self.contentFolder),
           Self.isInside(target, content) || Self.isInside(content, target),
           !(relative.hasPrefix(Self.contentFolder + "/") && Self.isImageFile(named: relative, at: target)) {
            return Diagnostic("this is a symbolic link to \(target), \(Self.isInside(target, content) ? "inside" : "which holds") the site's content/, and every file in content/ is read under its own name only (through a link it would be read again under another, or published as it is): copy the file or folder here instead", at: location)
        }
        // A post file is read under its own name only: through links from two folders (each
        // a post of its own) a post hidden under one name stays published under the other.
        let parts = relative.split(separator: "/")
        if parts.count == 4, parts[0] == Self.contentFolder, parts[1] == "posts", parts[3].hasSuffix(".md") {
            return Diagnostic("this is a symbolic link to \(target), and a post's file may not be one (the same file would be a post under every name that leads to it, and hiding one would leave the others published): move the file here instead (its folder may be a link)", at: location)
        }
        return nil
    }

    /// Whether the link `relative` is read as an image (by its name) and leads to a file.
    private static func isImageFile(named relative: String, at target: String) -> Bool {
        var status = stat()
        return ImageFileNames.isImage(String(relative.split(separator: "/").last ?? "")) && stat(target, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The folder of the site's content files (`ContentPath`'s, which this module cannot see).
    static let contentFolder = "content"
    /// The folders whose files a build publishes as they are: the site's static files and the
    /// theme's.
    static let publishedFolders = ["static", "templates/static"]

    /// Why the input `relative` (`content/site.yaml`) may not be read: a link on its way, or the
    /// file itself a link, that breaks the rule; nil otherwise (a missing part included). One
    /// `lstat` per part of the path; links are resolved only where there are some.
    public func problem(onPathOf relative: String) -> Diagnostic? {
        var current = ""
        for part in relative.split(separator: "/") {
            current += current.isEmpty ? String(part) : "/" + part
            var status = stat()
            guard lstat(site + "/" + current, &status) == 0 else { return nil }
            if status.isLink, let problem = problem(ofLink: current) { return problem }
        }
        return nil
    }

    /// Whether the real path `path` is the real folder `folder` or inside it.
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `path` with the links of its longest part that exists resolved, and the rest as it is.
    public static func realPath(ofMaybeMissing path: String) -> String {
        var existing = path
        var rest: [String] = []
        while existing.count > 1 {
            if let real = realPath(existing) { return ([real == "/" ? "" : real] + rest.reversed()).joined(separator: "/") }
            let url = URL(fileURLWithPath: existing)
            rest.append(url.lastPathComponent)
            existing = url.deletingLastPathComponent().path
        }
        return path
    }

    /// `path` with every link on it resolved, or nil (and `errno` set) when that fails.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension stat {
    public var isLink: Bool { (st_mode & S_IFMT) == S_IFLNK }
}
