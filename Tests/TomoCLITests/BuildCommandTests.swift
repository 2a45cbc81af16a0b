import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

@Suite struct BuildCommandTests {
    @Test func aSecondBuildSaysNothingChangedAndFullBuildsCompareEveryFile() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)

        let first = runTomo(["build", "--site", site.path])
        #expect(first.status == 0)
        #expect(first.output.hasPrefix("Built "))

        let second = runTomo(["build", "--site", site.path])
        #expect(second.output.hasPrefix("Nothing changed since the last build: "))

        let full = runTomo(["build", "--full", "--site", site.path])
        #expect(full.output.hasPrefix("Built "))
        #expect(full.output.contains(", 0 written, "))
    }

    /// The root is named as "/", as every other output folder is named with one final slash
    /// (`public/`, `/srv/www/`). Nothing is written there: it holds files tomo did not write.
    /// An output inside a folder every build reads is refused before anything is made, with
    /// the reason: no folder appears in the site, and nothing is built into `content/`.
    @Test(arguments: ["templates/x", "content/x", "static/x", "content", "templates"])
    func anOutputInsideAFolderTheBuildReadsIsRefused(output: String) throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        let before = fileTree(site)
        let result = runTomo(["build", "--site", site.path, "--out", site.appendingPathComponent(output).path])
        #expect(result.status == 1)
        let top = String(output.prefix { $0 != "/" })
        #expect(result.error.contains("is inside the site's \(top)/, which every build reads"), "\(result.error)")
        #expect(fileTree(site) == before)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(top).path) == (top == "content"), "\(top)/ made")
    }

    /// Nor may the output be tomo's cache, which holds what tomo read of the site (a private
    /// post's caption), whether a build made it yet or not.
    @Test(arguments: [".tomo-cache", ".tomo-cache/public"])
    func anOutputInsideTheCacheIsRefused(output: String) throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        let result = runTomo(["build", "--site", site.path, "--out", site.appendingPathComponent(output).path])
        #expect(result.status == 1)
        #expect(result.error.contains("is inside the site's .tomo-cache/, where tomo keeps what it read of the site"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent(".tomo-cache").path))
    }

    /// The same through a link: `lnk/posts/zed` with `lnk` a link to `content`, and
    /// `self/content/y` with `self` a link to the site folder, are inside `content/`.
    @Test(arguments: [("lnk", "content", "lnk/posts/zed"), ("self", ".", "self/content/y")])
    func anOutputReachedThroughALinkIntoAFolderTheBuildReadsIsRefused(link: String, target: String, output: String) throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent(link).path, withDestinationPath: target)
        let before = fileTree(site.appendingPathComponent("content"))
        let result = runTomo(["build", "--site", site.path, "--out", site.appendingPathComponent(output).path])
        #expect(result.status == 1)
        #expect(result.error.contains("is inside the site's content/, which every build reads"), "\(result.error)")
        #expect(fileTree(site.appendingPathComponent("content")) == before)
    }

    @Test func theRootAsTheOutputIsNamedWithOneSlash() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        let root = runTomo(["build", "--out", "/"], in: site)
        #expect(root.status == 1)
        #expect(root.error.hasSuffix("Build failed: 1 error; / is unchanged\n"), "\(root.error)")
        #expect(!root.error.contains("//"), "\(root.error)")
        let other = runTomo(["build", "--out", folder.url.appendingPathComponent("out").path], in: site)
        #expect(other.output.hasSuffix("→ \(folder.url.standardizedFileURL.path)/out/\n"), "\(other.output)")
    }

    /// A site.yaml without baseURL is warned of once, at its place, by check and build alike.
    @Test func aMissingBaseURLIsWarnedOfOnce() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        let config = site.appendingPathComponent("content/site.yaml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("baseURL:") }
            .joined(separator: "\n").write(to: config, atomically: false, encoding: .utf8)
        for command in [["check"], ["build"]] {
            let result = runTomo(command, in: site)
            #expect(result.status == 0)
            let warnings = result.error.split(separator: "\n").filter { $0.contains("baseURL") }
            #expect(warnings.count == 1 && warnings.first?.hasPrefix("warning: content/site.yaml:") == true, "\(command): \(result.error)")
        }
    }

    /// The steps are what the user asked for: on standard output (`> t.txt`, `| sort -n`),
    /// before the summary line, which stays the last.
    @Test func timingsListEveryStepOnStandardOutput() throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        #expect(runTomo(["init", site.path]).status == 0)
        let result = runTomo(["build", "--timings", "--site", site.path])
        #expect(result.status == 0)
        for step in ["stamp the input files", "load content, theme and store", "render and write", "save the build state"] {
            #expect(result.output.contains(step), "\(result.output)")
        }
        #expect(!result.error.contains("render and write"))
        let lines = result.output.split(separator: "\n")
        #expect(lines.last?.hasPrefix("Built ") == true && lines.dropLast().allSatisfy { $0.contains(" s  ") }, "\(result.output)")
    }
}
