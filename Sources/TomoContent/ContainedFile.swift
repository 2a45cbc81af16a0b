import Foundation

/// Whether a relative path names an existing file that stays inside a folder: no absolute
/// path, no `..` that climbs out, no symbolic link that points out of it.
enum ContainedFile {
    enum Outcome: Equatable { case inside, outside, missing }

    static func check(_ path: String, in folder: URL) -> Outcome {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.contains("\\") || path.contains("\0") { return .outside }
        var depth = 0
        for component in path.split(separator: "/") {
            if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
            if depth < 0 { return .outside }
        }
        if let outcome = plainPathOutcome(path, in: folder) { return outcome }
        let file = folder.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return .missing }
        let realFolder = folder.resolvingSymlinksInPath().path
        let realFile = file.resolvingSymlinksInPath().path
        return realFile.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/") ? .inside : .outside
    }

    /// The answer for the usual path (`alice/icon.jpg`: no `.` or `..` parts, no symbolic link
    /// on the way), found with one `lstat` per part instead of resolving both whole paths; nil
    /// when the path needs the full check. Sites check thousands of photos per build.
    private static func plainPathOutcome(_ path: String, in folder: URL) -> Outcome? {
        let parts = path.split(separator: "/")
        guard !parts.isEmpty, !parts.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        var current = folder.path
        for (index, part) in parts.enumerated() {
            current += "/" + part
            var status = stat()
            guard lstat(current, &status) == 0 else { return .missing }
            switch status.st_mode & S_IFMT {
            case S_IFLNK: return nil
            case S_IFDIR: if index == parts.count - 1 { return .missing }
            case S_IFREG: if index < parts.count - 1 { return .missing }
            default: return .missing
            }
        }
        return .inside
    }
}
