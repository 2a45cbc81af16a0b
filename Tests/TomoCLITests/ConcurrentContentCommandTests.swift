import Foundation
import Testing
import TomoTestSupport

/// Commands that choose and write content files take turns (`content/.files.lock`): run side
/// by side, as an import with `xargs -P` runs them, each does what it says and leaves a site
/// that builds.
@Suite struct ConcurrentContentCommandTests {
    /// Starts every command as its own `tomo` process before waiting for any: their exit
    /// statuses and what they printed on standard error.
    static func runTogether(_ commands: [[String]], in site: URL) throws -> [(status: Int32, error: String)] {
        let processes = try commands.enumerated().map { index, arguments in
            let process = Process()
            process.executableURL = tomoBinary()
            process.arguments = arguments
            process.currentDirectoryURL = site
            let log = site.appendingPathComponent(".log-\(index)")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            return (process, log)
        }
        return try processes.map { process, log in
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: log) }
            return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
        }
    }

    /// A PNG of one pixel.
    static let tinyPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==") ?? Data()

    @Test func postsAddedAtOnceEachGetTheirOwnSlugAndPhoto() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        // A tiny photo: decoded at once, every command reaches the choice of a slug together.
        try Self.tinyPNG.write(to: site.url.appendingPathComponent("shot.png"))
        // Rounds: a later one meets the photos of the earlier ones, the same bytes as its own.
        for _ in 0..<3 {
            let results = try Self.runTogether(Array(repeating: ["post", "add", "alice", "shot.png", "--alt", "A shot"], count: 10), in: site.url)
            for result in results { #expect(result.status == 0, "\(result.error)") }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("content/posts/alice").path)
        let posts = files.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }
        #expect(posts.count == 30, "\(files.sorted())")
        #expect(Set(files.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }) == Set(posts), "every post has its photo: \(files.sorted())")
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    @Test func usersAddedAtOnceOnASiteWithoutSchemasAllSucceed() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        let results = try Self.runTogether((0..<8).map { ["user", "add", "user\($0)"] }, in: site.url)
        for result in results { #expect(result.status == 0 && result.error.isEmpty, "\(result.error)") }
        #expect(runTomo(["check"], in: site.url).status == 0)
    }

    @Test func postsRemovedAtOnceTakeTheirPhotosWithThem() throws {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        try Self.tinyPNG.write(to: site.url.appendingPathComponent("s.png"))
        for number in 0..<8 {
            #expect(runTomo(["post", "add", "alice", "s.png", "--slug", "s\(number)", "--alt", "A"], in: site.url).status == 0)
        }
        let results = try Self.runTogether((0..<8).map { ["post", "rm", "alice/s\($0)", "--yes"] }, in: site.url)
        for result in results { #expect(result.status == 0 && result.error.isEmpty, "\(result.error)") }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("content/posts/alice").path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
