import Foundation
import Synchronization
import Testing
import TomoServer
import TomoTestSupport

/// The preview's kept files on a disk that fills up (`SmallDisk`): a file that cannot be stored
/// answers 404 and never other bytes, the person running the preview is told once why (not once
/// per page) and told again after the disk had room, and a manifest that cannot be written is
/// told too (the next start then finds the one before it, or none).
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "needs root and permission to mount a tmpfs (mount -t tmpfs) to fill a disk"))
struct FullDiskServeTests {
    let folder: TemporaryFolder
    var disk: URL { folder.url.appendingPathComponent("kept") }

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-full-serve")
    }

    /// A page of `kilobytes` KiB of text unlike any other (gzip is not asked for, so only the
    /// page's own blob takes room).
    func page(_ number: Int, kilobytes: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(number))
        return Array("<!doctype html><p>\(number)</p>".utf8) + (0..<kilobytes * 1024).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 26) }
    }

    /// Waits (20 s at most) until the disk holds at most `count` blobs.
    func waitForBlobs(atMost count: Int) {
        let blobs = disk.appendingPathComponent("blobs")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let files = FileManager.default.enumerator(atPath: blobs.path)?.compactMap { $0 as? String }.filter { $0.contains("-") } ?? []
            if files.count <= count { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// A preview keeping its files on the small disk, on a free port.
    var configuration: PreviewServer.Configuration {
        var configuration = PreviewServer.Configuration()
        configuration.port = 0
        configuration.keptFiles = disk
        return configuration
    }

    /// Fills what is left of the disk with a file that can be removed to make room again.
    func fill(_ name: String) throws -> URL {
        let filler = disk.appendingPathComponent(name)
        FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        while (try? handle.write(contentsOf: Data(repeating: 0, count: 4096))) != nil {}
        return filler
    }

    @Test func aFullDiskIsToldOnceAndItsPagesAreNeverServedWrong() throws {
        try SmallDisk.mount(disk, kilobytes: 256)
        defer { SmallDisk.unmount(disk) }
        let notes = Mutex<[String]>([])
        let first = try PreviewServer.start(configuration) { note in notes.withLock { $0.append(note) } }
        let pages = (0..<12).map { page($0, kilobytes: 40) }
        var files: [String: [UInt8]] = [:]
        for (number, bytes) in pages.enumerated() { files["p\(number).html"] = bytes }
        first.publish(ServedSite(files: files))

        var served = 0
        for (path, bytes) in files {
            let reply = try fetch(first.port, "/" + path)
            #expect(reply.status == 200 || reply.status == 404, "\(path): \(reply.status)")
            if reply.status == 200 {
                #expect(reply.body == bytes, "\(path)")
                served += 1
            }
        }
        // 256 KiB hold some of the 480 KiB, not all.
        #expect(served > 0 && served < files.count)
        // The manifest is written on its own clock (2 s after a publish): only the notes about
        // served files are counted here.
        func storeNotes() -> [String] { notes.withLock { $0 }.filter { $0.hasPrefix("cannot store a served file") } }
        #expect(storeNotes().count == 1, "\(notes.withLock { $0 })")
        #expect(storeNotes().first?.contains("cannot store a served file in \(disk.path): No space left on device") == true)

        // Still full: nothing more is told. Room again, a file stored, then full: told again.
        let more = page(99, kilobytes: 40)
        first.publish(changed: ["more.html": first.servedFile(path: "more.html", bytes: more)], removed: [])
        #expect(storeNotes().count == 1)
        let small = Array("<!doctype html><p>small</p>".utf8)
        first.publish(ServedSite(files: ["small.html": small]))
        #expect(try fetch(first.port, "/small.html").body == small)
        // Retired blobs are deleted soon after a publish: the disk is filled once they are gone
        // (small.html's and the reload script's are left).
        waitForBlobs(atMost: 2)
        let filler = try fill("filler")
        let big = page(100, kilobytes: 40)
        first.publish(ServedSite(files: ["big.html": big]))
        #expect(try fetch(first.port, "/big.html").status == 404)
        #expect(storeNotes().count == 2)

        // The stop records the served snapshot, and cannot: that is told, and the next preview
        // serves only what an earlier record named, each file with its own bytes or not at all.
        // (Deleting small.html's blob, soon after the publish, makes room: the disk is filled
        // again once it is gone.)
        waitForBlobs(atMost: 1)
        let moreFiller = try fill("more")
        first.stop()
        #expect(notes.withLock { $0 }.contains { $0.hasPrefix("cannot record the served files in \(disk.path)/manifest: No space left on device") }, "\(notes.withLock { $0 })")
        try FileManager.default.removeItem(at: filler)
        try FileManager.default.removeItem(at: moreFiller)
        let second = try PreviewServer.start(configuration)
        defer { second.stop() }
        files["more.html"] = more
        files["small.html"] = small
        files["big.html"] = big
        for (path, bytes) in files {
            let reply = try fetch(second.port, "/" + path)
            // Not at all: not found, or (no record usable) asked for again until a build publishes.
            #expect(reply.status == 404 || reply.status == 503 || reply.body == bytes, "\(path): \(reply.status)")
        }
    }

    /// A rebuild's page that cannot be written (`writtenLater` on a full disk) is still served,
    /// from memory, with its own bytes; the person is told once. Once there is room, the next
    /// one is written to the store.
    @Test func aPageWrittenLaterOnAFullDiskIsServedFromMemory() throws {
        try SmallDisk.mount(disk, kilobytes: 256)
        defer { SmallDisk.unmount(disk) }
        let notes = Mutex<[String]>([])
        let server = try PreviewServer.start(configuration) { note in notes.withLock { $0.append(note) } }
        defer { server.stop() }
        let filler = try fill("filler")
        let later = page(7, kilobytes: 40)
        server.publish(changed: ["later.html": server.servedFile(path: "later.html", bytes: later, writtenLater: true)], removed: [])
        #expect(try fetch(server.port, "/later.html").body == later)
        // Long after the write failed, it is still served.
        let deadline = Date().addingTimeInterval(10)
        while !notes.withLock({ $0.contains { $0.hasPrefix("cannot store a served file") } }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(notes.withLock { $0.filter { $0.hasPrefix("cannot store a served file") } }.count == 1, "\(notes.withLock { $0 })")
        let reply = try fetch(server.port, "/later.html")
        #expect(reply.status == 200 && reply.body == later)

        try FileManager.default.removeItem(at: filler)
        let roomy = page(8, kilobytes: 40)
        server.publish(changed: ["roomy.html": server.servedFile(path: "roomy.html", bytes: roomy, writtenLater: true)], removed: [])
        let blobs = disk.appendingPathComponent("blobs")
        var stored = false
        let writtenBy = Date().addingTimeInterval(10)
        while !stored, Date() < writtenBy {
            let paths = FileManager.default.enumerator(atPath: blobs.path)?.compactMap { $0 as? String } ?? []
            stored = paths.contains { (try? Data(contentsOf: blobs.appendingPathComponent($0))).map([UInt8].init) == roomy }
            if !stored { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(stored, "the page was not written once there was room")
        #expect(try fetch(server.port, "/roomy.html").body == roomy)
    }
}
