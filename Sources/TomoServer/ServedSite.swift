import Foundation
import TomoCore

/// The files of a built site, by path below the site root (`alice/index.html`, `feed.xml`),
/// as the preview server serves them from memory.
public struct ServedSite: Sendable {
    public var files: [String: [UInt8]]

    public init(files: [String: [UInt8]] = [:]) {
        self.files = files
    }

    /// Reads every file below `folder` (the output folder of a build).
    ///
    /// Symbolic links are followed only when they lead to a file inside `folder`; a link that
    /// points out of it is left out, so nothing outside the site can ever be served.
    public init(contentsOf folder: URL) throws {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var files: [String: [UInt8]] = [:]
        try Self.collect(folder: root, relativePath: "", root: root, into: &files)
        self.files = files
    }

    private static func collect(folder: String, relativePath: String, root: String,
                                into files: inout [String: [UInt8]]) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw Diagnostic("cannot read the folder \(folder): \(error.localizedDescription)")
        }
        for name in names.sorted() {
            let path = folder + "/" + name
            let key = relativePath.isEmpty ? name : relativePath + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }  // removed while we read
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                try collect(folder: path, relativePath: key, root: root, into: &files)
            case S_IFREG:
                files[key] = try read(path)
            case S_IFLNK:
                let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                var targetStatus = stat()
                guard target.hasPrefix(root + "/"), stat(target, &targetStatus) == 0,
                      targetStatus.st_mode & S_IFMT == S_IFREG else { continue }
                files[key] = try read(target)
            default:
                continue  // sockets, pipes and devices are never part of a site
            }
        }
    }

    private static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic("cannot read the file \(path)")
        }
        return [UInt8](data)
    }
}

extension ServedSite {
    /// This site with the live-reload script tag in every HTML page, as `tomo serve` serves it
    /// (never what `tomo build` writes).
    public func withReloadScript() -> ServedSite {
        var site = self
        for (path, bytes) in files { site.files[path] = Self.withReloadScript(bytes, at: path) }
        return site
    }

    /// One file as served with live reload: pages get the script, other files stay as they are.
    public static func withReloadScript(_ bytes: [UInt8], at path: String) -> [UInt8] {
        path.lowercased().hasSuffix(".html") ? ReloadClient.injectReloadScript(into: bytes) : bytes
    }
}
