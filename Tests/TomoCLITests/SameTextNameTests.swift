import Foundation
import Testing
import TomoTestSupport

/// Two names of one folder that are one text in two Unicode forms (`café` composed, as most
/// systems save it, and decomposed, as some macOS tools do) are two files to Linux and one name
/// to tomo. In any folder tomo reads, the second is an error naming both: two such post folders
/// stopped `tomo build` and `tomo check` with a crash.
@Suite struct SameTextNameTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test(arguments: [
        ("content/posts/", ""),
        ("content/users/", ".yaml"),
        ("content/pages/", ".md"),
        ("templates/", ".mustache"),
        ("static/", ".txt"),
    ])
    func isAnErrorNamingBothNeverACrash(folder: String, suffix: String) throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n", "content/users/alice.yaml": "name: Alice\n"])
        for name in [Self.composed, Self.decomposed] {
            let url = site.url.appendingPathComponent(folder + name + suffix)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if suffix.isEmpty {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try Data("x\n".utf8).write(to: url)
            }
        }
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(folder) \(command): \(run.output) \(run.error)")
            #expect(run.error.contains("is the same text as caf") && run.error.contains("in another Unicode form"), "\(folder) \(command): \(run.error)")
        }
        let real = try runBinary(["check"], in: site.url)
        #expect(real.status == 1, "\(folder): \(real.error)")
    }
}
