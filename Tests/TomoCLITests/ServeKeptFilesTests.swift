import Foundation
import Testing
import TomoCore
import TomoTestSupport

/// What `tomo serve` keeps in `.tomo-cache/serve/<setting>/` and what it serves from there, as
/// its user sees it: deleting the folder while it runs loses no page, and a restart on a broken
/// site takes the last preview's files down once its first build fails (they may show what was
/// made private since), with the errors told.
@Suite struct ServeKeptFilesTests {
    static let files = [
        "content/site.yaml": "title: Test\n",
        "content/users/alice.yaml": "name: Alice\n",
        "content/users/bob.yaml": "name: Bob\n",
        "content/pages/about.md": "---\ntitle: About\n---\nAbout this site.\n",
    ]

    /// Every file `tomo build` publishes for the preview's address (what `--no-reload` serves,
    /// byte for byte), by path below the site root.
    static func built(_ site: TemporaryFolder, for preview: LoggedPreview) throws -> [String: [UInt8]] {
        let output = site.url.appendingPathComponent("built")
        let build = runTomo(["build", "--base-url", preview.url, "--out", output.path], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            // Not the build's own marker (`.tomo-output`), which is no page.
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                  !url.lastPathComponent.hasPrefix(".tomo-") else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(output.standardizedFileURL.path.count + 1))
            files[path] = Array(try Data(contentsOf: url))
        }
        try FileManager.default.removeItem(at: output)
        return files
    }

    /// The paths of `expected` the preview does not serve with exactly those bytes, after
    /// waiting up to `seconds` for them (a rebuild that stores them again may be running).
    static func differing(_ expected: [String: [UInt8]], in preview: LoggedPreview, waiting seconds: Double) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var wrong: [String] = []
        repeat {
            wrong = try expected.keys.sorted().filter { path in
                let reply = try preview.get(path)
                return reply.status != 200 || reply.body != expected[path]
            }
            if wrong.isEmpty { return [] }
            usleep(100_000)
        } while Date() < deadline
        return try wrong.map { "\($0): \(try preview.get($0).status)" }
    }

    /// `rm -rf .tomo-cache` while the preview may be making its folders again: a removal that
    /// meets a folder made meanwhile fails, and is run again, as a person would.
    static func deleteCache(of site: TemporaryFolder) throws {
        let cache = site.url.appendingPathComponent(".tomo-cache")
        // For up to ten seconds: on a busy machine the preview may make a folder again between
        // one try and the next more than twenty times.
        for attempt in 1...200 {
            do {
                try FileManager.default.removeItem(at: cache)
                return
            } catch where attempt < 200 {
                usleep(50_000)
            }
        }
    }

    @Test func deletingTheCacheWhileServingLosesNoPage() throws {
        let site = try TemporaryFolder(Self.files)
        let preview = try LoggedPreview(site: site.url)
        defer { preview.stop() }
        let expected = try Self.built(site, for: preview)
        #expect(expected.count > 10)
        let differing = try Self.differing(expected, in: preview, waiting: 0)
        #expect(differing == [], "\(differing)")

        try Self.deleteCache(of: site)
        #expect(try Self.differing(expected, in: preview, waiting: 10) == [])

        // Deleted again, then a page saved: the saved page and every other one are served.
        try Self.deleteCache(of: site)
        try site.write("content/pages/about.md", "---\ntitle: About\n---\nAbout this site, again.\n")
        guard case .rebuilt = try preview.settle(step: 1) else {
            Issue.record("the save did not rebuild")
            return
        }
        let afterSave = try Self.built(site, for: preview)
        #expect(afterSave["about/index.html"] != expected["about/index.html"])
        #expect(try Self.differing(afterSave, in: preview, waiting: 10) == [])

        // Nothing was short of space: no warning says so.
        #expect(!preview.printed.contains("free some space"), "\(preview.printed)")
    }

    /// A disk too full to store the served files: those answer 404, and once space is freed,
    /// the next save stores every page, not only the ones it changed.
    @Test(.enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs"))
    func pagesADiskTooFullToStoreAreServedAfterTheNextSaveOnceThereIsSpace() throws {
        // The site is the disk; the file that fills it lies beside content/, read by nothing.
        let site = try TemporaryFolder()
        try SmallDisk.mount(site.url, kilobytes: 4096)
        defer { SmallDisk.unmount(site.url) }
        for (path, text) in Self.files.merging(["content/site.yaml": "title: Test\ndisableKinds: [cards]\n"], uniquingKeysWith: { $1 }) {
            try site.write(path, text)
        }
        var space = statvfs()
        #expect(statvfs(site.path, &space) == 0)
        let pad = site.url.appendingPathComponent("pad")
        try Data(count: max(0, Int(space.f_bavail) * Int(space.f_frsize) - 48 * 1024)).write(to: pad)
        let preview = try LoggedPreview(site: site.url)
        defer { preview.stop() }
        // The first build (done when the preview says where it serves) ran out of room.
        #expect(preview.printed.contains("cannot store a served file"), "the disk was not full: \(preview.printed)")

        try FileManager.default.removeItem(at: pad)
        try site.write("content/users/alice.yaml", "name: Alice Again\n")
        guard case .rebuilt = try preview.settle(step: 2) else {
            Issue.record("the save did not rebuild: \(preview.printed)")
            return
        }
        let expected = try Self.built(site, for: preview)
        #expect(try Self.differing(expected, in: preview, waiting: 10) == [])
    }

    @Test func aRestartOnABrokenSiteServesTheErrorsNotTheLastPreviewsFiles() throws {
        let site = try TemporaryFolder(Self.files)
        let first = try LoggedPreview(site: site.url)
        _ = try Self.built(site, for: first)
        #expect(try first.get("about/").text.contains("About this site."))
        first.stop()

        // The page made a draft while no preview ran, and the site broken.
        try site.write("content/pages/about.md", "---\ntitle: About\ndraft: true\n---\nAbout this site.\n")
        try site.write("content/users/bob.yaml", "name: [broken\n")
        let second = try LoggedPreview(site: site.url, port: first.port)
        defer { second.stop() }
        // The first build ends before the Serving line.
        #expect(second.printed.contains("has not built yet"), "\(second.printed)")
        #expect(!second.printed.contains("still served"), "\(second.printed)")
        for path in ["", "about/", "alice/"] {
            let page = try second.get(path).text
            #expect(!page.contains("About this site."), "\(path): \(page)")
            #expect(page.contains("content/users/bob.yaml"), "\(path): \(page)")
        }

        // Fixed, the site is built and served as it is now.
        try site.write("content/users/bob.yaml", "name: Robert\n")
        guard case .rebuilt = try second.settle(step: 1) else {
            Issue.record("the fix did not rebuild: \(second.printed)")
            return
        }
        #expect(try Self.differing(Self.built(site, for: second), in: second, waiting: 0) == [])
    }

    @Test func theErrorPageListsTheErrorsAndIsNeverKept() throws {
        let site = try TemporaryFolder(Self.files.merging(["content/users/bob.yaml": "name: [<b>&\n"]) { $1 })
        let first = try LoggedPreview(site: site.url)
        #expect(first.printed.contains("has not built yet"), "\(first.printed)")
        let error = try #require(first.printed.split(separator: "\n").first { $0.hasPrefix("error: ") })
        let page = try first.get("")
        let escaped = MarkupText.escaped(String(error.dropFirst("error: ".count)))
        #expect(page.text.contains(escaped), "\(page.text)")
        #expect(page.text.contains("content/users/bob.yaml"), "\(page.text)")
        // --no-reload: nothing reloads the page by itself.
        #expect(!page.text.contains("this page reloads"), "\(page.text)")
        #expect(try first.get("alice/").text == page.text)
        first.stop()

        let second = try LoggedPreview(site: site.url, port: first.port)
        defer { second.stop() }
        #expect(second.printed.contains("has not built yet"), "\(second.printed)")
        #expect(!second.printed.contains("last preview's"), "\(second.printed)")
    }
}
