import Foundation
import TomoCore

/// `.tomo-cache/` in the site folder, where builds keep thumbnails, share cards and what the
/// last build made, and `tomo serve` its served files. Every part of it is made when missing,
/// so the only thing that can stand in its way is something else at its name.
public enum CacheFolder {
    public static let name = ".tomo-cache"

    /// An error at `.tomo-cache` when something other than a folder (or a link to one) is
    /// there: every cache under it would fail to be made, each with a message of its own, or be
    /// lost in silence.
    public static func problem(site: URL) -> Diagnostic? {
        let path = site.path + "/" + name
        var status = stat()
        if stat(path, &status) == 0 {
            if status.isFolder { return nil }
        } else {
            // Nothing there is fine: it is made. A link to nothing is not.
            guard lstat(path, &status) == 0 else { return nil }
        }
        let what = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link to nothing" : "a file"
        return Diagnostic(
            "this is \(what), where tomo keeps its caches in a folder (\(name)/): delete it or move it away (tomo makes the folder again)",
            at: SourceLocation(file: name, line: 1, column: 1)
        )
    }
}
