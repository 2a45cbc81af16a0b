import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// `.tomo-cache` is a folder tomo makes; anything else at its name is one located error with
/// the fix, from every command that keeps a cache there (and from `tomo check`, which fails
/// when the build would).
@Suite struct CacheFolderTests {
    static let expected = "error: .tomo-cache:1:1: this is a file, where tomo keeps its caches in a folder (.tomo-cache/): delete it or move it away (tomo makes the folder again)"

    static func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        try site.write(".tomo-cache", "")
        return site
    }

    @Test func aFileInPlaceOfTheCacheFolderIsOneErrorForBuildCheckAndServe() throws {
        let site = try Self.site()
        let port = try freeLoopbackPort()
        for command in [["build"], ["check"], ["serve", "--no-reload", "--port", String(port)]] {
            let result = runTomo(command, in: site.url)
            let errors = result.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") }
            #expect(result.status == 1 && errors == [Self.expected], "\(command): \(result.error)")
            #expect(!result.error.contains("NSCocoaErrorDomain"), "\(command): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
        // Moved away, the folder is made again and the site builds.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent(".tomo-cache"))
        #expect(runTomo(["build"], in: site.url).status == 0)
    }
}
