import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when
/// the last reference to it goes away (a test that throws or fails included). Every test target
/// makes its folders with it, so no run leaves folders behind.
public final class TemporaryFolder: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// `prefix` starts the folder's name, to tell whose a folder is while a test runs.
    public init(prefix: String = "tomo-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A folder holding `files` (path → text).
    public convenience init(_ files: [String: String], prefix: String = "tomo-test") throws {
        try self.init(prefix: prefix)
        for (path, text) in files { try write(path, text) }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `path` inside the folder, creating folders on the way: to a temporary
    /// file renamed over `path`, as editors save.
    public func write(_ path: String, _ text: String) throws {
        let file = try makeParent(of: path)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// Writes `bytes` to `path` inside the folder, creating folders on the way: in place.
    public func write(_ path: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: makeParent(of: path))
    }

    /// The text of the file at `path` inside the folder.
    public func read(_ path: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)
    }

    /// Copies the file at `source` to `path` inside the folder, creating folders on the way.
    public func copy(_ source: URL, to path: String) throws {
        try FileManager.default.copyItem(at: source, to: makeParent(of: path))
    }

    private func makeParent(of path: String) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        return file
    }
}
