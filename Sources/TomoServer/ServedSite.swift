import Foundation

/// The files of a built site, by path below the site root (`alice/index.html`, `feed.xml`),
/// as they are handed to the preview server (which stores them on disk, see `BlobStore`).
public struct ServedSite: Sendable {
    public var files: [String: [UInt8]]

    public init(files: [String: [UInt8]] = [:]) {
        self.files = files
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
