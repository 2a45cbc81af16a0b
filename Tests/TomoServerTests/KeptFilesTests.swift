import Foundation
import Testing
import TomoServer
import TomoTestSupport

/// The served bytes live on disk in `keptFiles`, one blob per content: a restart serves the
/// snapshot kept there at once, a damaged manifest or blob is never served, blobs no snapshot
/// names are deleted, and the server's memory does not hold the files' bytes.
@Suite(.serialized) struct KeptFilesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-kept")
    }

    func start(_ site: ServedSite = ServedSite()) throws -> PreviewServer {
        var configuration = PreviewServer.Configuration()
        configuration.port = 0
        configuration.keptFiles = folder.url
        return try PreviewServer.start(configuration, site: site)
    }

    /// The bytes of every blob in the store (neither the manifest nor the lock).
    func blobContents() -> [[UInt8]] {
        let blobs = folder.url.appendingPathComponent("blobs")
        let paths = FileManager.default.enumerator(atPath: blobs.path)?.compactMap { $0 as? String } ?? []
        // A blob may be deleted while the folder is read (retired blobs are deleted on a thread
        // of their own): it is left out.
        return paths.compactMap { path in
            let url = blobs.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { return nil }
            return (try? Data(contentsOf: url)).map { [UInt8]($0) }
        }
    }

    /// The blob holding `bytes`.
    func blob(holding bytes: [UInt8]) throws -> URL {
        let blobs = folder.url.appendingPathComponent("blobs")
        let paths = FileManager.default.enumerator(atPath: blobs.path)?.compactMap { $0 as? String } ?? []
        let url = paths.map { blobs.appendingPathComponent($0) }.first { (try? Data(contentsOf: $0)).map([UInt8].init) == bytes }
        return try #require(url)
    }

    @Test func aRestartServesTheKeptSnapshotUntilTheNextPublish() throws {
        try start(sampleSite).stop()
        let server = try start()
        defer { server.stop() }
        #expect(server.keepsFiles)
        #expect(server.keptFileCount == sampleSite.files.count)
        for (path, bytes) in sampleSite.files {
            let reply = try fetch(server.port, "/" + path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.body == bytes, "\(path)")
        }
        let zipped = try fetch(server.port, "/alice/", headers: ["Accept-Encoding: gzip"])
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(try gunzip(zipped.body) == sampleSite.files["alice/index.html"])

        let home = Array("<!doctype html><title>New</title>".utf8)
        #expect(server.publish(ServedSite(files: ["index.html": home])).paths.count == sampleSite.files.count)
        #expect(try fetch(server.port, "/").body == home)
        #expect(try fetch(server.port, "/robots.txt").status == 404)
    }

    /// A publish of a few files onto the kept snapshot (before any whole publish) changes those
    /// and keeps serving every other kept file; a folder of the kept snapshot without its slash
    /// is redirected to it, before and after.
    @Test func changingAFewFilesOfTheKeptSnapshotKeepsTheOthers() throws {
        try start(sampleSite).stop()
        let server = try start()
        defer { server.stop() }
        #expect(try fetch(server.port, "/alice").status == 301)
        let home = Array("<!doctype html><title>Changed</title>".utf8)
        let changes = server.publish(changed: ["index.html": server.servedFile(path: "index.html", bytes: home)], removed: ["sitemap.xml"])
        #expect(changes.paths == ["index.html", "sitemap.xml"])
        #expect(try fetch(server.port, "/").body == home)
        #expect(try fetch(server.port, "/sitemap.xml").status == 404)
        #expect(try fetch(server.port, "/alice").status == 301)
        for (path, bytes) in sampleSite.files where path != "index.html" && path != "sitemap.xml" {
            let reply = try fetch(server.port, "/" + path)
            #expect(reply.status == 200 && reply.body == bytes, "\(path)")
        }
    }

    /// A preview that never stops (killed, or the machine lost power) has still recorded what
    /// it served a few seconds after it published it.
    @Test func theManifestIsWrittenSoonAfterAPublishWithoutAStop() throws {
        let server = try start()
        defer { server.stop() }
        _ = server.publish(sampleSite)
        let manifest = folder.url.appendingPathComponent("manifest")
        let deadline = Date().addingTimeInterval(20)
        var lines: [Substring] = []
        while Date() < deadline {
            lines = ((try? String(contentsOf: manifest, encoding: .utf8)) ?? "").split(separator: "\n")
            if !lines.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let paths = Set(lines.dropFirst().dropLast().compactMap { $0.split(separator: "\t", maxSplits: 1).last.map(String.init) })
        #expect(paths == Set(sampleSite.files.keys))
    }

    /// Publishes half a second apart for three seconds (a quick run of edits) leave the
    /// manifest as it was: it lists the served snapshot once they pause, and then the last one.
    @Test func theManifestWaitsForAQuickRunOfPublishesToPause() throws {
        let server = try start()
        defer { server.stop() }
        let manifest = folder.url.appendingPathComponent("manifest")
        /// The paths the manifest lists now.
        func recorded() -> Set<String> {
            let lines = ((try? String(contentsOf: manifest, encoding: .utf8)) ?? "").split(separator: "\n")
            return Set(lines.dropFirst().dropLast().compactMap { $0.split(separator: "\t", maxSplits: 1).last.map(String.init) })
        }
        func version(_ number: Int) -> ServedSite { ServedSite(files: ["v\(number).txt": Array("version \(number)".utf8)]) }
        func waitFor(_ paths: Set<String>) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while recorded() != paths, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            return recorded() == paths
        }
        server.publish(version(0))
        #expect(waitFor(["v0.txt"]))
        for number in 1...6 {
            Thread.sleep(forTimeInterval: 0.5)
            server.publish(version(number))
        }
        #expect(recorded() == ["v0.txt"], "no snapshot of the run was listed while it went on")
        #expect(waitFor(["v6.txt"]))
    }

    @Test func aDamagedOrMissingKeptBlobIsNeverServed() throws {
        let pages = (0..<3).map { Array("<!doctype html><p>page \($0)</p>".utf8) }
        let site = ServedSite(files: ["a.html": pages[0], "b.html": pages[1], "c.html": pages[2]])
        try start(site).stop()
        // The same length with other bytes, and a blob gone.
        var damaged = pages[0]
        damaged[damaged.count - 5] = UInt8(ascii: "X")
        try Data(damaged).write(to: try blob(holding: pages[0]))
        try FileManager.default.removeItem(at: try blob(holding: pages[1]))

        let server = try start()
        defer { server.stop() }
        #expect(server.keptFileCount == 3)
        #expect(try fetch(server.port, "/a.html").status == 404)
        #expect(try fetch(server.port, "/b.html").status == 404)
        #expect(try fetch(server.port, "/c.html").body == pages[2])
        // A publish of the same bytes stores them again: the damaged blob is not taken as theirs.
        server.publish(site)
        #expect(try fetch(server.port, "/a.html").body == pages[0])
        #expect(try fetch(server.port, "/b.html").body == pages[1])
    }

    /// A named pipe put where a kept blob was (nothing ever writes to it) is a damaged blob:
    /// its file answers 404 at once instead of waiting on the pipe, and a publish of the same
    /// bytes stores them over it instead of blocking the build.
    @Test(.timeLimit(.minutes(1))) func aFIFOInPlaceOfAKeptBlobIsNeverWaitedOn() throws {
        let page = Array("<!doctype html><p>piped</p>".utf8)
        let site = ServedSite(files: ["a.html": page])
        try start(site).stop()
        let url = try blob(holding: page)
        try FileManager.default.removeItem(at: url)
        #expect(mkfifo(url.path, 0o644) == 0)

        let server = try start()
        defer { server.stop() }
        #expect(try fetch(server.port, "/a.html").status == 404)
        server.publish(site)
        #expect(try fetch(server.port, "/a.html").body == page)
    }

    @Test(arguments: ["cut short", "a byte changed", "empty", "another text"])
    func aDamagedManifestServesNothingKept(_ damage: String) throws {
        try start(sampleSite).stop()
        let manifest = folder.url.appendingPathComponent("manifest")
        var bytes = [UInt8](try Data(contentsOf: manifest))
        switch damage {
        case "cut short": bytes.removeLast(bytes.count / 3)
        case "a byte changed": bytes[bytes.count / 2] ^= 0x01
        case "empty": bytes = []
        default: bytes = Array("tomo serve manifest 1\nindex.html\tindex.html\nend\t1\t0\n".utf8)
        }
        try Data(bytes).write(to: manifest)
        let server = try start()
        defer { server.stop() }
        #expect(server.keptFileCount == 0)
        // Nothing to serve until a build publishes: the page that asks again, no kept byte.
        for path in ["/", "/alice/"] {
            let reply = try fetch(server.port, path)
            #expect(reply.status == 503 && reply.text.contains("Building the site"))
        }
    }

    @Test func blobsNoSnapshotNamesAreDeleted() throws {
        let old = (0..<3).map { Array("old \($0)".utf8) }
        let server = try start(ServedSite(files: ["a.txt": old[0], "b.txt": old[1], "c.txt": old[2]]))
        defer { server.stop() }
        let new = Array("new".utf8)
        server.publish(changed: ["a.txt": server.servedFile(path: "a.txt", bytes: new)], removed: ["b.txt"])
        server.publish(ServedSite(files: ["a.txt": new, "d.txt": old[2]]))
        // Deleted soon after, off the publishing thread.
        var contents = blobContents()
        let deadline = Date().addingTimeInterval(20)
        while contents.count > 3, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            contents = blobContents()
        }
        #expect(!contents.contains(old[0]) && !contents.contains(old[1]))
        #expect(contents.contains(new) && contents.contains(old[2]))
        // The files served and the reload script, nothing else.
        #expect(contents.count == 3)
    }

    /// What an earlier preview left that its manifest does not name (blobs, a temporary file, a
    /// gzip form) is deleted soon after the next start, except a blob that start stores again.
    @Test func whatAnEarlierPreviewLeftIsDeletedUnlessStoredAgain() throws {
        let pages = (0..<3).map { Array("<!doctype html><p>left \($0)</p>".utf8) }
        try start(ServedSite(files: ["a.html": pages[0], "b.html": pages[1], "c.html": pages[2]])).stop()
        let leftBlobs = try pages.map { page in (try blob(holding: page), page) }
        // A later run served another site and was killed before it deleted those blobs.
        try start(ServedSite(files: ["index.html": Array("home".utf8)])).stop()
        for (url, bytes) in leftBlobs { try Data(bytes).write(to: url) }
        let strayFolder = leftBlobs[0].0.deletingLastPathComponent()
        try Data("partial".utf8).write(to: strayFolder.appendingPathComponent(".tmp-1-1"))
        try Data("gzip".utf8).write(to: strayFolder.appendingPathComponent("0123456789abcdef-4.gz"))

        let next = try start(ServedSite(files: ["again.html": pages[1]]))
        defer { next.stop() }
        #expect(try fetch(next.port, "/again.html").body == pages[1])
        let deadline = Date().addingTimeInterval(20)
        var left = Set(blobContents())
        let leftovers = [pages[0], pages[2], Array("partial".utf8), Array("gzip".utf8)]
        while leftovers.contains(where: left.contains), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            left = Set(blobContents())
        }
        #expect(!left.contains(pages[0]) && !left.contains(pages[2]))
        #expect(!left.contains(Array("partial".utf8)) && !left.contains(Array("gzip".utf8)))
        #expect(left.contains(pages[1]))
        #expect(try fetch(next.port, "/again.html").body == pages[1])
    }

    /// Two versions of a site published in turn: each publish retires the other version's blobs
    /// and stores them again while they are being deleted. Every file is served with its bytes
    /// after every publish, and the store ends with the blobs of the last version only.
    @Test func blobsStoredAgainWhileTheyAreDeletedAreServed() throws {
        let server = try start()
        defer { server.stop() }
        let versions = (0..<2).map { version in
            ServedSite(files: Dictionary(uniqueKeysWithValues: (0..<200).map { ("p\($0).txt", Array("page \($0), version \(version)".utf8)) }))
        }
        for round in 0..<12 {
            let site = versions[round % 2]
            server.publish(site)
            for (path, bytes) in site.files {
                let reply = try fetch(server.port, "/" + path)
                #expect(reply.status == 200 && reply.body == bytes, "round \(round), \(path): \(reply.status)")
            }
        }
        let last = Set(versions[1].files.values)
        var contents = blobContents()
        let deadline = Date().addingTimeInterval(20)
        while contents.count > last.count + 1, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            contents = blobContents()
        }
        // The last version's blobs and the reload script's.
        #expect(contents.count == last.count + 1)
        #expect(last.isSubset(of: Set(contents)))
    }

    /// A rebuild's pages go live before they are written (`writtenLater`): each is served with
    /// its bytes at once, compressed too, is written to the store soon after, and is what a
    /// restart serves, even when the preview stops right after the publish.
    @Test func filesWrittenLaterAreServedAtOnceThenKeptOnDisk() throws {
        let server = try start(sampleSite)
        func round(_ number: Int) throws -> [String: [UInt8]] {
            let files = Dictionary(uniqueKeysWithValues: (0..<40).map { page in
                ("p\(page).html", Array("<!doctype html><p>page \(page), round \(number)</p>\(String(repeating: "<p>text</p>", count: 200))".utf8))
            })
            let served = Dictionary(uniqueKeysWithValues: files.map { ($0.key, server.servedFile(path: $0.key, bytes: $0.value, writtenLater: true)) })
            server.publish(changed: served, removed: [])
            for (path, bytes) in files {
                let reply = try fetch(server.port, "/" + path)
                #expect(reply.status == 200 && reply.body == bytes, "round \(number), \(path): \(reply.status)")
            }
            let zipped = try fetch(server.port, "/p0.html", headers: ["Accept-Encoding: gzip"])
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(try gunzip(zipped.body) == files["p0.html"])
            return files
        }
        for number in 0..<4 { _ = try round(number) }
        let written = try round(4)
        let deadline = Date().addingTimeInterval(20)
        func unstored(_ files: [String: [UInt8]]) -> Int { Set(files.values).subtracting(blobContents()).count }
        while unstored(written) > 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(unstored(written) == 0, "pages not written to the store")
        // Stopped right after a publish of many pages: what was still to be written is
        // written at the stop.
        let last = Dictionary(uniqueKeysWithValues: (0..<1500).map { page in
            ("many/p\(page).html", Array("<!doctype html><p>page \(page) of many</p>\(String(repeating: "<p>more text</p>", count: 1000))".utf8))
        })
        server.publish(changed: Dictionary(uniqueKeysWithValues: last.map { ($0.key, server.servedFile(path: $0.key, bytes: $0.value, writtenLater: true)) }), removed: [])
        server.stop()
        #expect(unstored(last) == 0, "pages not written to the store")
        let restarted = try start()
        defer { restarted.stop() }
        for (path, bytes) in last {
            let reply = try fetch(restarted.port, "/" + path)
            #expect(reply.status == 200 && reply.body == bytes, "after the restart, \(path): \(reply.status)")
        }
    }

    /// While a rebuild holds deletions, the blobs its publish let go stay on disk; they are
    /// deleted once it ends.
    @Test func noBlobIsDeletedWhileDeletionsAreHeld() throws {
        let server = try start()
        defer { server.stop() }
        let old = ServedSite(files: Dictionary(uniqueKeysWithValues: (0..<50).map { ("p\($0).txt", Array("page \($0), old".utf8)) }))
        server.publish(old)
        func held() -> Int { Set(old.files.values).intersection(blobContents()).count }
        server.holdingDeletions {
            server.publish(ServedSite(files: ["index.html": Array("new".utf8)]))
            Thread.sleep(forTimeInterval: 0.5)
            #expect(held() == old.files.count, "deleted while held")
        }
        let deadline = Date().addingTimeInterval(20)
        while held() > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(held() == 0, "not deleted after the hold")
    }

    @Test func aSecondServerOnTheSameFolderKeepsItsOwnFiles() throws {
        let first = try start(sampleSite)
        defer { first.stop() }
        let second = try start(ServedSite(files: ["index.html": Array("second".utf8)]))
        #expect(!second.keepsFiles)
        #expect(try fetch(second.port, "/").text == "second")
        second.stop()
        #expect(try fetch(first.port, "/").body == sampleSite.files["index.html"])
    }

    @Test func theResidentMemoryDoesNotGrowWithTheBytesOfTheServedFiles() throws {
        let files = 32, size = 4 << 20
        let server = try start()
        defer { server.stop() }
        let before = try residentBytes()
        var served: [String: ServedFile] = [:]
        for index in 0..<files {
            // Every file its own bytes, so no two share a blob.
            var bytes = [UInt8](repeating: UInt8(index), count: size)
            bytes[0] = 0x89
            served["media/\(index).png"] = server.servedFile(path: "media/\(index).png", bytes: bytes)
        }
        server.publish(whole: served)
        for index in 0..<files {
            let reply = try fetch(server.port, "/media/\(index).png")
            #expect(reply.status == 200 && reply.body.count == size && reply.body.last == UInt8(index))
        }
        let grown = try residentBytes() - before
        #expect(grown < files * size / 4, "resident memory grew by \(grown >> 20) MiB serving \(files * size >> 20) MiB")
    }

    /// VmRSS of this process.
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ")[1])) * 1024
    }
}
