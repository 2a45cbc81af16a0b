import Foundation
import TomoCore

/// Whether a relative path names an existing file that stays inside a folder: no absolute
/// path, no `..` that climbs out, no symbolic link that points out of it.
enum ContainedFile {
    enum Outcome: Equatable {
        case inside, outside, missing
        /// The path stays inside, but a symbolic link on its way leads to this file outside.
        case linkedOutside(String)
        /// There, but not a file that can be read: why, with the fix ("is a folder, not a file: …").
        case unusable(String)

        static let folder = Outcome.unusable("is a folder, not a file: write the path of the image file in it (without a final /)")

        static let hidden = Outcome.unusable("names a hidden file or folder (its name starts with .), which tomo neither reads nor watches for changes: rename it without the leading .")

        /// Something other than a file or a folder (a named pipe, a device, a socket), named as
        /// every other read names it (`RegularFile`).
        static func notRegular(_ mode: mode_t) -> Outcome {
            .unusable("cannot be read: " + RegularFile.Failure.notRegular(kind: RegularFile.kind(of: mode)).reason)
        }

        static func unreadable(_ code: Int32) -> Outcome {
            .unusable("cannot be read (\(String(cString: strerror(code)))): make the file and the folders on its way readable")
        }
    }

    static func check(_ path: String, in folder: URL) -> Outcome {
        checkRoute(path, in: folder).outcome
    }

    /// The outcome, and whether it was found on the plain route (no `.` or `..` parts, no
    /// link on the way): an answer that holds as long as the file's stamp does.
    static func checkRoute(_ path: String, in folder: URL) -> (outcome: Outcome, isPlain: Bool) {
        // Hidden names are not content: the build's stamps (and the preview's watcher) pass
        // them by, so an edit to such an image would never be seen.
        if path.split(separator: "/").contains(where: { $0.hasPrefix(".") && $0 != "." && $0 != ".." }) {
            return (.hidden, false)
        }
        if let outcome = plainPathOutcome(path, in: folder) { return (outcome, true) }
        return (fullCheck(path, in: folder), false)
    }

    private static func fullCheck(_ path: String, in folder: URL) -> Outcome {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.contains("\\") || path.contains("\0") { return .outside }
        var depth = 0
        for component in path.split(separator: "/") {
            if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
            if depth < 0 { return .outside }
        }
        if path.hasSuffix("/") { return .folder }
        let file = folder.appendingPathComponent(path)
        var status = stat()
        guard stat(file.path, &status) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(errno) }
        guard !status.isFolder else { return .folder }
        let realFolder = folder.resolvingSymlinksInPath().path
        let realFile = file.resolvingSymlinksInPath().path
        if realFile.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/") {
            return status.st_mode & S_IFMT == S_IFREG ? .inside : .notRegular(status.st_mode)
        }
        // The path itself stays inside: a link on the way leads out, which the path's own fix
        // ("use a path like …") would not mend.
        return .linkedOutside(realFile)
    }

    /// The answer for the usual path (`alice/icon.jpg`: no `.` or `..` parts, no symbolic link
    /// on the way), found with one `lstat` per part instead of resolving both whole paths; nil
    /// when the path needs the full check. Sites check thousands of photos per build.
    private static func plainPathOutcome(_ path: String, in folder: URL) -> Outcome? {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.hasSuffix("/") || path.contains("\\") || path.contains("\0") { return nil }
        let parts = path.split(separator: "/")
        guard !parts.isEmpty, !parts.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        var current = folder.path
        for (index, part) in parts.enumerated() {
            current += "/" + part
            var status = stat()
            guard lstat(current, &status) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(errno) }
            switch status.st_mode & S_IFMT {
            case S_IFLNK: return nil
            case S_IFDIR: if index == parts.count - 1 { return .folder }
            case S_IFREG: if index < parts.count - 1 { return .missing }
            default: return index < parts.count - 1 ? .missing : .notRegular(status.st_mode)
            }
        }
        return .inside
    }
}

extension NodeReader {
    /// `path` without the spaces and line feeds around it, when it has some (and more).
    static func trimmedPath(_ path: String) -> String? {
        let trimmed = path.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || trimmed == path ? nil : trimmed
    }

    /// The error of a path that names its file once the spaces or line feed around it go.
    func surroundingSpaceError(_ path: String, key: String, trimmed: String, at location: SourceLocation) {
        error("\(key) \(path.quotedValue) starts or ends with a space or a line feed, which the file's name does not (a block scalar, `|` or `>`, keeps its last line feed): write `\(key): \(trimmed)` on one line", at: location)
    }

    /// `path`, the value of `key` at `location`, when it names a file inside `folder`; otherwise
    /// nil and an error there, ending with `outside` (`must stay inside …: the fix`) or `missing`
    /// (`put the image at … or fix the path`). Every path a content file names is checked here.
    func containedFile(_ path: String, key: String, at location: SourceLocation, in folder: URL, outside: String, missing: String) -> String? {
        let (outcome, isPlain) = ContainedFile.checkRoute(path, in: folder)
        noteChecked(isPlain && outcome == .inside ? folder.path + "/" + path : nil)
        switch outcome {
        case .inside:
            return path
        case .outside:
            error("\(key) \(path.quotedValue) \(outside)", at: location)
        case .linkedOutside(let target):
            error("\(key) \(path.quotedValue) is a symbolic link (or goes through one) to \(target), outside the folder it must stay in: put the file itself there instead of the link", at: location)
        case .missing:
            // `icon: |` keeps the line feed after the path: the file is there under the path
            // without it, and "not found" alone would not say why.
            if let trimmed = Self.trimmedPath(path), ContainedFile.check(trimmed, in: folder) == .inside {
                surroundingSpaceError(path, key: key, trimmed: trimmed, at: location)
            } else {
                error("\(key) file not found: \(missing)", at: location)
            }
        case .unusable(let reason):
            error("\(key) \(path.quotedValue) \(reason)", at: location)
        }
        return nil
    }
}
