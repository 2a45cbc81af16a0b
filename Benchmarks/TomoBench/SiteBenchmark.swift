import Foundation
import TomoCore
import TomoSite

/// Builds the generated 1,000-user site (../shared/bench/gen_site.py): a full build to disk, a
/// rebuild with nothing changed, and in memory (as `tomo serve` does) the time from one profile
/// edit to the rebuilt site, median of 20 edits.
enum SiteBenchmark {
    static let users = 1000

    static func run() throws {
        let site = try generatedSite(users: users)
        let options = BuildOptions(site: site, output: site.appendingPathComponent("public"))
        try? FileManager.default.removeItem(at: options.output)

        let cold = try SiteBuilder.build(options)
        print(String(format: "site: %d users, full build to disk: %d pages, %d files in %.2f s (%.0f pages/s)", users, cold.pages, cold.files, cold.seconds, Double(cold.pages) / cold.seconds))
        let warm = try SiteBuilder.build(options)
        print(String(format: "site: rebuild with nothing changed: %d of %d files written in %.2f s", warm.written, warm.files, warm.seconds))

        let session = SiteSession(options: options)
        let memory = try session.buildAll()
        print(String(format: "site: full build in memory: %d files in %.2f s", memory.files.count, memory.seconds))
        let profile = site.appendingPathComponent("content/users/user00042.yaml")
        let original = try Data(contentsOf: profile)
        defer { try? original.write(to: profile) }
        var times: [Double] = []
        var made = 0
        for edit in 0..<20 {
            let text = ReloadBenchmark.Edit.name.apply(to: String(decoding: original, as: UTF8.self), number: edit)
            try Data(text.utf8).write(to: profile)
            let clock = ContinuousClock()
            let start = clock.now
            let update = try session.rebuild(changedPaths: ["content/users/user00042.yaml"])
            let elapsed = clock.now - start
            times.append(elapsed.seconds * 1000)
            made = update.made
        }
        times.sort()
        print(String(format: "site: one display-name edit → rebuilt in memory: median %.1f ms, slowest %.1f ms (%d files remade of %d)", times[times.count / 2], times[times.count - 1], made, memory.files.count))
    }

    /// The generated site in bench-out/, made with the shared generator when missing.
    static func generatedSite(users: Int) throws -> URL {
        let folder = URL(fileURLWithPath: "bench-out/tomo-\(users)")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("content/site.yaml").path) { return folder }
        let generator = URL(fileURLWithPath: "../shared/bench/gen_site.py")
        guard FileManager.default.fileExists(atPath: generator.path) else {
            throw Diagnostic("the benchmark needs ../shared/bench/gen_site.py beside this repository")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, "--users", String(users), "--posts-per-user", "10", "--out", folder.path, "--flavor", "tomo"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Diagnostic("gen_site.py failed with status \(process.terminationStatus)") }
        return folder
    }
}
