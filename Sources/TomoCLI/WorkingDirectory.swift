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
}
