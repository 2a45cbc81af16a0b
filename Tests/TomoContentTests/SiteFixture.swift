import Foundation
@testable import TomoContent
import TomoTestSupport

/// A site folder in a temporary directory, written from a few small files.
struct SiteFixture {
    static let siteYAML = "title: Test site\nbaseURL: https://example.com/\n"

    private let folder: TemporaryFolder
    var root: URL { folder.url }

    /// `files` maps paths relative to the site folder to their text; `content/site.yaml` is
    /// added unless given.
    init(_ files: [String: String] = [:], bytes: [String: [UInt8]] = [:]) throws {
        folder = try TemporaryFolder(prefix: "tomo-content")
        var all = files.mapValues { Array($0.utf8) }.merging(bytes) { _, new in new }
        if all["content/site.yaml"] == nil { all["content/site.yaml"] = Array(Self.siteYAML.utf8) }
        for (path, content) in all { try folder.write(path, bytes: content) }
    }

    func load() -> ContentLoadResult {
        ContentLoader.load(site: root)
    }

    /// Every error as `file:line:column: message`.
    func errors() -> [String] {
        load().errors.map(\.description)
    }

    func warnings() -> [String] {
        load().warnings.map(\.description)
    }
}
