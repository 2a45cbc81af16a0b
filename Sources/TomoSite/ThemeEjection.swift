import Foundation
import TomoCore
import TomoTheme

/// `tomo theme eject`: copies files of the built-in theme into a site's `templates/`, where
/// they override the built-in ones file by file (`Theme.load`), to be edited there.
public enum ThemeEjection {
    /// What one ejection did, by path inside `templates/` (`profile.mustache`), sorted.
    public struct Outcome: Sendable, Equatable {
        /// Files written (made, or replaced with `overwriting`).
        public var written: [String] = []
        /// Files left as they were because the site already has them.
        public var kept: [String] = []
    }

    /// How a theme file is named on the command line: a template by its name (`profile`,
    /// `icons/github`), any other file by its path (`static/style.css`, `labels/en.json`).
    public static func name(of path: String) -> String {
        path.hasSuffix(".mustache") ? String(path.dropLast(".mustache".count)) : path
    }

    /// The theme files a site can take over: all but the brand marks' table and its licence,
    /// which the build reads from the built-in theme only (`LinkService`), so a copy in a site
    /// would change nothing.
    static var ejectable: [String] {
        BuiltinTheme.paths.filter { $0 != "icons/brands.tsv" && $0 != "icons/brands-LICENSE.md" }
    }

    /// Every name `select` takes: each file's name, then the folders (`icons`, `labels`, `static`).
    public static var names: [String] {
        let paths = ejectable
        let folders = Set(paths.compactMap { path in path.firstIndex(of: "/").map { String(path[..<$0]) } })
        return paths.map(name(of:)) + folders.sorted()
    }

    /// The theme files `names` ask for, sorted without repeats (every file for no names): a
    /// name is a template's name, a file's path, or a folder for all it holds. A failure lists
    /// the names that name nothing.
    public static func select(_ names: [String]) -> Result<[String], UnknownNames> {
        let paths = ejectable
        guard !names.isEmpty else { return .success(paths) }
        var chosen: Set<String> = []
        var unknown: [String] = []
        for given in names {
            let asked = given.hasSuffix("/") ? String(given.dropLast()) : given
            let matching = paths.filter { $0 == asked || name(of: $0) == asked || $0.hasPrefix(asked + "/") }
            if matching.isEmpty { unknown.append(given) } else { chosen.formUnion(matching) }
        }
        guard unknown.isEmpty else { return .failure(UnknownNames(names: unknown)) }
        return .success(chosen.sorted())
    }

    /// Names `select` does not know, with the closest known one for each.
    public struct UnknownNames: Error, Sendable, CustomStringConvertible {
        public var names: [String]

        public var description: String {
            let known = ThemeEjection.names
            let each = names.map { "\"\($0)\"" + Suggestion.hint(for: $0, in: known) }
            return "the built-in theme has no \(each.joined(separator: ", ")); it has: \(known.joined(separator: ", "))"
        }
    }

    /// Why `relative` could not be written, at the path in the way: a file where a folder must
    /// be (`templates` itself), or a folder where the file goes; else the system's reason.
    private static func writeProblem(_ relative: String, site: URL, error: any Error) -> Diagnostic {
        var status = stat()
        var prefix = ""
        let parts = relative.split(separator: "/")
        for (index, part) in parts.enumerated() {
            prefix += (prefix.isEmpty ? "" : "/") + part
            guard lstat(site.path + "/" + prefix, &status) == 0 else { break }
            let isLast = index == parts.count - 1
            if !isLast, !status.isFolder {
                let what = status.st_mode & S_IFMT == S_IFREG ? "a file" : RegularFile.kind(of: status.st_mode)
                return Diagnostic("this is \(what), where the theme's folder \(prefix)/ goes: move it away, then eject again", at: SourceLocation(file: prefix, line: 1, column: 1))
            }
            if isLast, !Self.holdsAFile(status) {
                return Diagnostic("this is \(RegularFile.kind(of: status.st_mode)), where the theme's file goes: move it away, then eject again", at: SourceLocation(file: prefix, line: 1, column: 1))
            }
        }
        return Diagnostic("cannot write this file: \(Diagnostic.reason(of: error))", at: SourceLocation(file: relative, line: 1, column: 1))
    }

    /// A file, or a link (which the site's own links rule has let lead to one).
    private static func holdsAFile(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFREG || status.st_mode & S_IFMT == S_IFLNK
    }

    /// Writes the theme files at `paths` (as `select` gives them) into `site`'s `templates/`.
    /// A file the site already has is kept unless `overwriting`; nothing is written through a
    /// link that leads out of the site. Stops at the first file that cannot be written, with
    /// what was written before it lost to nobody: each file is whole or absent.
    public static func eject(_ paths: [String], into site: URL, overwriting: Bool) throws(Diagnostic) -> Outcome {
        let links = SiteLinks(site: site.path)
        var outcome = Outcome()
        for path in paths {
            let relative = "templates/" + path
            guard let bytes = BuiltinTheme.contents(of: path) else { continue }
            if let problem = links.problem(onPathOf: relative) { throw problem }
            let url = site.appendingPathComponent(relative)
            var status = stat()
            if !overwriting, lstat(url.path, &status) == 0 {
                // Only a file is kept; anything else there is in the way, with or without --force.
                guard Self.holdsAFile(status) else {
                    throw Self.writeProblem(relative, site: site, error: CocoaError(.fileWriteFileExists))
                }
                outcome.kept.append(path)
                continue
            }
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Whole: an interrupted ejection leaves no half-written template behind.
                try RegularFile.replaceWhole(url.path) { try bytes.write(to: $0) }
            } catch {
                throw Self.writeProblem(relative, site: site, error: error)
            }
            outcome.written.append(path)
        }
        return outcome
    }
}
