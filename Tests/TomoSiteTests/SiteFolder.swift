import Foundation
import TomoCore
import TomoSite
import TomoTestSupport

/// A site in a temporary folder, written from a few small files, that tests build for real.
final class SiteFolder {
    static let siteYAML = "title: Test site\nbaseURL: https://example.com/\n"

    private let folder: TemporaryFolder
    var root: URL { folder.url }
    var output: URL { root.appendingPathComponent("public") }

    init(_ files: [String: String] = [:]) throws {
        folder = try TemporaryFolder(prefix: "tomo-site")
        var all = files
        if all["content/site.yaml"] == nil { all["content/site.yaml"] = Self.siteYAML }
        for (path, text) in all { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        try write(path, bytes: Array(text.utf8))
    }

    func write(_ path: String, bytes: [UInt8]) throws {
        try folder.write(path, bytes: bytes)
    }

    /// The photo `p.jpg` (`PostPagesTests.photo`) beside the posts of each of `handles`.
    func writePhoto(forPostsOf handles: String...) throws {
        for handle in handles { try write("content/posts/\(handle)/p.jpg", bytes: PostPagesTests.photo) }
    }

    @discardableResult
    func build(date: Date = Date()) throws -> BuildReport {
        try SiteBuilder.build(BuildOptions(site: root, buildDate: date))
    }

    /// The output of a full build (at `date`) of the same site into another folder, path → text.
    func fullBuild(at date: Date = Date()) throws -> [String: String] {
        let elsewhere = root.appendingPathComponent("full-build")
        try? FileManager.default.removeItem(at: elsewhere)
        try SiteBuilder.build(BuildOptions(site: root, output: elsewhere, buildDate: date, full: true))
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        return Self.files(in: elsewhere)
    }

    /// The build's errors as `file:line:column: message`, or nil when it succeeded.
    func buildErrors() -> [String]? {
        do {
            try build()
            return nil
        } catch {
            return (error as? DiagnosticList)?.diagnostics.map(\.description) ?? ["\(error)"]
        }
    }

    /// A file of the output as text, nil when it is missing.
    func page(_ path: String) -> String? {
        FileManager.default.contents(atPath: output.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every output file: path → text.
    func outputFiles() -> [String: String] {
        Self.files(in: output)
    }

    /// Every file under `output`: path → text (without tomo's record of the files it made,
    /// which differs between two folders holding the same site).
    static func files(in output: URL) -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: output, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(output.standardizedFileURL.path.count + 1))
            if path == OutputBookkeeping.record { continue }
            files[path] = String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
        }
        return files
    }

    func modificationDate(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)[.modificationDate] as? Date
    }
}
