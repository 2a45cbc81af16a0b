import Foundation

/// The folder tomo was started in.
public enum WorkingDirectory {
    /// Read with `getcwd` into a buffer of the path's own size: Foundation's
    /// `currentDirectoryPath` gives an empty path past 1,024 bytes, which made every relative
    /// path (and the walk up to the site) wrong. When it cannot be read (the folder was deleted),
    /// Foundation's answer stands, and a command that needs the site says there is none.
    public static var current: URL {
        guard let path = getcwd(nil, 0) else { return URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }
        defer { free(path) }
        return URL(fileURLWithPath: String(cString: path), isDirectory: true)
    }

    /// Why the folder tomo was started in cannot be read (it was deleted or moved away), with
    /// the fix; nil when it can. A path relative to it, or the site found from it, would be
    /// wrong, so a command that needs one says this instead.
    public static var problem: String? {
        guard let path = getcwd(nil, 0) else {
            return "the current folder cannot be read (\(String(cString: strerror(errno)))): it was deleted or moved; cd to a folder that exists, or give an absolute path"
        }
        free(path)
        return nil
    }
}
