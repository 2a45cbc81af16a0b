import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// A disk that fills up half way (`SmallDisk`): every command that writes either finishes or
/// exits 1 with a message and leaves what it wrote before as it was, with no partial or hidden
/// temporary file.
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs (mount -t tmpfs) to fill a disk"))
struct FullDiskTests {
    static let demo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content")

    /// `post add` onto a posts folder of every size from nothing to room for all: the photo or
    /// the post file does not fit, or both do.
    @Test func postAddOnAFullDiskLeavesNothingHalfWritten() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        let photo = Self.demo.appendingPathComponent("posts/alice/tokyo-bay-sunset.jpg")
        let photoSize = try #require(try FileManager.default.attributesOfItem(atPath: photo.path)[.size] as? Int)
        let posts = site.url.appendingPathComponent("content/posts/alice")
        var outcomes: Set<Int32> = []
        for kilobytes in stride(from: 4, through: photoSize / 1024 + 12, by: 4) {
            try SmallDisk.mount(posts, kilobytes: kilobytes)
            defer { SmallDisk.unmount(posts) }
            let result = runTomo(["post", "add", "alice", photo.path, "--slug", "sunset", "--alt", "A sunset"], in: site.url)
            outcomes.insert(result.status)
            let left = fileTree(posts)
            if result.status == 0 {
                #expect(left.keys.sorted() == ["sunset.jpg", "sunset.md"], "\(kilobytes) KiB")
                #expect(left["sunset.jpg"] == (try Data(contentsOf: photo)), "\(kilobytes) KiB")
                #expect(runTomo(["check"], in: site.url).status == 0, "\(kilobytes) KiB")
            } else {
                #expect(result.status == 1, "\(kilobytes) KiB")
                #expect(result.error.hasPrefix("error: cannot "), "\(kilobytes) KiB: \(result.error)")
                #expect(result.error.contains("space"), "\(kilobytes) KiB: \(result.error)")
                #expect(left.isEmpty, "\(kilobytes) KiB: a refused post add left \(left.keys.sorted())")
            }
        }
        // The sizes tried cover a photo that does not fit, a post file that does not, and both.
        #expect(outcomes == [0, 1])
    }

    /// `tomo build` onto an output disk that is full: exit 1 naming the problem, the last
    /// output's files as they were.
    @Test func aBuildOnAFullDiskKeepsThePreviousOutput() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        #expect(runTomo(["user", "add", "alice"], in: site.url).status == 0)
        let disk = site.url.appendingPathComponent("disk")
        try SmallDisk.mount(disk, kilobytes: 600)
        defer { SmallDisk.unmount(disk) }
        let first = runTomo(["build", "--out", "disk/site"], in: site.url)
        #expect(first.status == 0, "\(first.error)")
        let before = fileTree(disk)

        // Every photo of the demo: more thumbnails than the disk holds.
        let photos = Self.demo.appendingPathComponent("posts")
        for owner in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: photos.appendingPathComponent(owner).path) where name.hasSuffix(".jpg") {
                let slug = "\(owner)-\(name.dropLast(4))"
                try site.copy(photos.appendingPathComponent("\(owner)/\(name)"), to: "content/posts/alice/\(slug).jpg")
                try site.write("content/posts/alice/\(slug).md", "---\nphoto: \(slug).jpg\ndate: 2026-05-01\nalt: x\n---\n")
            }
        }
        // Each time with less room: the disk fills up at another file.
        for filler in 0..<4 {
            try Data(repeating: 0, count: 24 * 1024).write(to: disk.appendingPathComponent("filler-\(filler)"))
            let second = runTomo(["build", "--out", "disk/site"], in: site.url)
            #expect(second.status == 1, "\(second.output)")
            #expect(second.error.contains("No space left on device"), "\(second.error)")
            // Byte for byte as before, with no temporary `….tomo-new` file or flag anywhere.
            let after = fileTree(disk).filter { !$0.key.hasPrefix("filler-") }
            #expect(after == before, "\(Set(after.keys).symmetricDifference(before.keys).sorted())")
        }
    }

    /// A build that fails on a full disk, at whatever file the disk fills up, leaves tomo's
    /// record of the files it made (`.tomo-made`) naming every one it named before: the next
    /// build that fits deletes what the site stopped publishing.
    @Test func aBuildOnAFullDiskKeepsTheRecordOfTheFilesTomoMade() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        for handle in ["alice", "bob", "carol"] {
            #expect(runTomo(["user", "add", handle, "--name", "Old \(handle)"], in: site.url).status == 0)
        }
        let disk = site.url.appendingPathComponent("disk")
        try SmallDisk.mount(disk, kilobytes: 1024)
        defer { SmallDisk.unmount(disk) }
        #expect(runTomo(["build", "--out", "disk/site"], in: site.url).status == 0)
        let record = disk.appendingPathComponent("site/.tomo-made")
        // The paths it names (between the format line and the checksum).
        func recordedPaths() -> Set<Substring> {
            Set((FileManager.default.contents(atPath: record.path).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n").dropFirst().dropLast())
        }
        let before = recordedPaths()
        #expect(before.contains("carol/index.html"))
        #expect(runTomo(["user", "rm", "carol", "--yes"], in: site.url).status == 0)
        #expect(runTomo(["user", "set", "alice", "--name", "New alice"], in: site.url).status == 0)
        var failed = 0
        for kilobytes in stride(from: 0, through: 400, by: 8) {
            let result = try Self.withFree(kilobytes, on: disk) { runTomo(["build", "--full", "--out", "disk/site"], in: site.url) }
            if result.status == 0 { break }
            failed += 1
            #expect(result.status == 1 && result.error.contains("No space left on device"), "\(kilobytes) KiB free: \(result.error)")
            let after = recordedPaths()
            #expect(after.isSuperset(of: before), "\(kilobytes) KiB free: the record lost \(before.subtracting(after).sorted())")
        }
        #expect(failed > 0, "no build ran out of space")
        #expect(runTomo(["build", "--out", "disk/site"], in: site.url).status == 0)
        #expect(!FileManager.default.fileExists(atPath: disk.appendingPathComponent("site/carol/index.html").path), "the removed user's page is deleted")
    }

    /// Builds of a site that lies on a disk filling up, at whatever file it fills up: none
    /// leaves a temporary file anywhere in the site (the image and card caches included), which
    /// would eat the space whose lack made it fail.
    @Test func aBuildOnAFullDiskLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let disk = folder.url.appendingPathComponent("disk")
        try SmallDisk.mount(disk, kilobytes: 4096)
        defer { SmallDisk.unmount(disk) }
        let site = disk.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content"), withIntermediateDirectories: true)
        try Data("title: Test\nbaseURL: https://example.com/\n".utf8).write(to: site.appendingPathComponent("content/site.yaml"))
        #expect(runTomo(["user", "add", "alice"], in: site).status == 0)
        let photo = Self.demo.appendingPathComponent("posts/alice/tokyo-bay-sunset.jpg")
        #expect(runTomo(["post", "add", "alice", photo.path, "--slug", "sunset", "--alt", "A sunset"], in: site).status == 0)
        #expect(runTomo(["build"], in: site).status == 0)
        var failed = 0
        for kilobytes in stride(from: 0, through: 96, by: 8) {
            // Each build draws a new share card for the new name.
            #expect(runTomo(["user", "set", "alice", "--name", "Alice \(kilobytes)"], in: site).status == 0)
            let result = try Self.withFree(kilobytes, on: disk) { runTomo(["build"], in: site) }
            if result.status != 0 { failed += 1 }
            let walker = FileManager.default.enumerator(atPath: site.path)
            while let path = walker?.nextObject() as? String {
                let name = (path as NSString).lastPathComponent
                #expect(!name.hasSuffix(".tmp") && !name.hasSuffix(".partial") && !name.contains(".tomo-new"), "\(kilobytes) KiB free: \(path) is left")
            }
        }
        #expect(failed > 0, "no build ran out of space")
    }

    /// `tomo init` on a disk that fills up, at whatever file it fills up: it makes the whole
    /// site, or exits 1 and leaves nothing, so the same init runs again once there is room.
    @Test func initOnAFullDiskMakesTheWholeSiteOrNothing() throws {
        let folder = try TemporaryFolder()
        let disk = folder.url.appendingPathComponent("disk")
        try SmallDisk.mount(disk, kilobytes: 2048)
        defer { SmallDisk.unmount(disk) }
        let site = disk.appendingPathComponent("site")
        var failed = 0
        for kilobytes in stride(from: 0, through: 1600, by: 32) {
            let result = try Self.withFree(kilobytes, on: disk) { runTomo(["init", site.path], in: folder.url) }
            if result.status == 0 { break }
            failed += 1
            #expect(result.status == 1 && result.error.contains("space"), "\(kilobytes) KiB free: \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: site.path), "\(kilobytes) KiB free: left \(fileTree(site).keys.sorted())")
        }
        #expect(failed > 0, "no init ran out of space")
        #expect(runTomo(["check"], in: site).status == 0)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("schemas/profile.schema.json").path))
    }

    /// What `body` gives when run with only `kilobytes` free on `disk` (the rest filled by a
    /// file, removed after).
    static func withFree<Result>(_ kilobytes: Int, on disk: URL, _ body: () throws -> Result) throws -> Result {
        var space = statvfs()
        #expect(statvfs(disk.path, &space) == 0)
        let pad = disk.appendingPathComponent("pad")
        try Data(count: max(0, Int(space.f_bavail) * Int(space.f_frsize) - kilobytes * 1024)).write(to: pad)
        defer { try? FileManager.default.removeItem(at: pad) }
        return try body()
    }
}
