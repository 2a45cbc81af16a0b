import Foundation
import Testing
import TomoTestSupport

/// A named pipe (FIFO) or a device where tomo expects a file: opening or reading it the usual way
/// blocks forever (a FIFO with no writer) or never ends (`/dev/zero`). Every command refuses it
/// with an error naming the file, and a cache file that is one only means more work.
@Suite struct SpecialFileTests {
    /// A site with a profile, a page, a post with its photo, a template of its own and a store,
    /// built once so that its caches exist.
    static func site() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.url.path]).status == 0)
        try folder.writePost("example/sunset")
        try FileManager.default.copyItem(at: sampleJPEG, to: folder.url.appendingPathComponent("content/posts/example/p.jpg"))
        try folder.write("templates/footer.mustache", "<footer>{{site.title}}</footer>\n")
        try folder.write("templates/labels/en.json", "{}")
        #expect(runTomo(["build", "--site", folder.url.path]).status == 0)
        return folder
    }

    enum Special: String, CaseIterable { case fifo, device }

    /// Puts a FIFO, or a link to `/dev/zero`, at `path` inside the site (replacing what was there).
    static func place(_ special: Special, at path: String, in site: TemporaryFolder) throws {
        let url = site.url.appendingPathComponent(path)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        switch special {
        case .fifo: #expect(mkfifo(url.path, 0o644) == 0)
        case .device: try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
        }
    }

    static let contentFiles = [
        "content/site.yaml", "content/store.json", "content/users/example.yaml", "content/users/other.yaml",
        "content/pages/about.md", "content/posts/example/sunset.md", "content/posts/example/p.jpg",
        "templates/footer.mustache", "templates/labels/en.json",
    ]

    @Test(arguments: Special.allCases, contentFiles)
    func aContentFileThatIsNoFileIsAnErrorNamingIt(special: Special, path: String) throws {
        let site = try Self.site()
        try Self.place(special, at: path, in: site)
        var commands = [["check"], ["build"], ["build", "--full"]]
        if path == "content/store.json" { commands += [["user", "list"], ["follow", "example", "example"], ["reports"]] }
        if path.hasPrefix("content/posts/") { commands += [["post", "list"]] }
        if path == "content/posts/example/sunset.md" { commands += [["like", "example", "example/sunset"]] }
        for command in commands {
            let run = try ProcessRun.tomo(command, in: site.url, timeout: .seconds(20))
            #expect(run.ending == .exited(1), "\(command) with \(special) at \(path): \(run)")
            // A photo is named by the post that shows it.
            #expect(run.error.contains(path.hasSuffix(".jpg") ? "content/posts/example/sunset.md" : path), "\(command) with \(special) at \(path): \(run)")
            #expect(run.error.contains(URL(fileURLWithPath: path).lastPathComponent), "\(command) with \(special) at \(path): \(run)")
        }
    }

    /// A photo or icon that is a named pipe is named as one, at the line that names it, as every
    /// other file tomo reads is: not "file not found", which would send its author looking for
    /// a file that is there. The same, reached by a path with `./`, which is checked the long way.
    @Test(arguments: ["p.jpg", "./p.jpg"])
    func aPhotoThatIsANamedPipeIsNamedAsOne(written: String) throws {
        let site = try Self.site()
        try site.write("content/posts/example/sunset.md", "---\nphoto: \(written)\ndate: 2026-05-01T18:30:00+09:00\n---\nHi.\n")
        try Self.place(.fifo, at: "content/posts/example/p.jpg", in: site)
        for command in [["check"], ["build"], ["build", "--full"]] {
            let run = try ProcessRun.tomo(command, in: site.url, timeout: .seconds(20))
            #expect(run.ending == .exited(1), "\(command): \(run)")
            #expect(run.error.contains(
                "content/posts/example/sunset.md:2:8: photo \"\(written)\" cannot be read: it is a named pipe (FIFO), not a regular file: replace it with a file"
            ), "\(command): \(run)")
            #expect(!run.error.contains("not found"), "\(command): \(run)")
        }
    }

    @Test(arguments: Special.allCases)
    func aCacheFileThatIsNoFileMeansAFullBuild(special: Special) throws {
        let site = try Self.site()
        let cache = site.url.appendingPathComponent(".tomo-cache")
        let files = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { !$0.hasDirectoryPath && ["state", "outputs", "sources"].contains($0.lastPathComponent) || $0.pathExtension == "json" } ?? []
        #expect(files.count >= 3)
        let expected = SiteTree.files(in: site.url.appendingPathComponent("public"))
        for file in files {
            try Self.place(special, at: String(file.path.dropFirst(site.url.path.count + 1)), in: site)
            // Something changed, so the build reads what the cache kept.
            try site.write("content/pages/about.md", "---\ntitle: About\n---\nChanged \(file.lastPathComponent).\n")
            let run = try ProcessRun.tomo(["build"], in: site.url, timeout: .seconds(20))
            #expect(run.ending == .exited(0), "\(special) at \(file.path): \(run)")
        }
        #expect(SiteTree.files(in: site.url.appendingPathComponent("public")).keys == expected.keys)
    }
}

/// Every file under a folder: path → bytes.
enum SiteTree {
    static func files(in folder: URL) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let root = folder.standardizedFileURL.path
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? FileManager.DirectoryEnumerator() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.count + 1))
            if path == OutputBookkeeping.record { continue }
            files[path] = Array(FileManager.default.contents(atPath: url.path) ?? Data())
        }
        return files
    }
}
