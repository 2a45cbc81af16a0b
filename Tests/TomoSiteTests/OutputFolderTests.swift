import Foundation
import Testing
import Synchronization
import TomoCore
@testable import TomoSite
import TomoTestSupport

@Suite struct OutputFolderTests {
    let folder: TemporaryFolder
    var root: URL { folder.url }
    var output: URL { root.appendingPathComponent("public") }

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-output")
    }

    func build(_ files: [String: String]) throws {
        let folder = try OutputFolder(destination: output)
        for (path, text) in files { try folder.write(Array(text.utf8), to: path) }
        try folder.commit()
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: output.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func inode(_ path: String) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
        return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    func siblings() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    }

    @Test func aBuildCreatesTheFolderWithEveryFile() throws {
        try build(["index.html": "home", "alice/index.html": "alice", "alice/posts/sunset/index.html": "post"])
        #expect(read("index.html") == "home")
        #expect(read("alice/posts/sunset/index.html") == "post")
        #expect(try siblings() == ["public"])
    }

    @Test func aDiscardedBuildLeavesThePreviousOutputExactlyAsItWas() throws {
        try build(["index.html": "v1", "alice/index.html": "alice v1"])
        let before = try inode("index.html")
        let failing = try OutputFolder(destination: output)
        try failing.write(Array("v2".utf8), to: "index.html")
        failing.discard()
        #expect(read("index.html") == "v1")
        #expect(read("alice/index.html") == "alice v1")
        #expect(try inode("index.html") == before)
        #expect(try siblings() == ["public"])
    }

    @Test func unchangedFilesKeepTheirFileAndChangedOnesAreReplaced() throws {
        try build(["same.html": "same", "changed.html": "old", "gone.html": "bye"])
        let sameInode = try inode("same.html")
        let changedInode = try inode("changed.html")
        let folder = try OutputFolder(destination: output, madeBefore: ["same.html", "changed.html", "gone.html"])
        try folder.write(Array("same".utf8), to: "same.html")
        try folder.write(Array("new".utf8), to: "changed.html")
        #expect(folder.counts == OutputFolder.Tally(written: 1, unchanged: 1))
        try folder.commit()
        #expect(try inode("same.html") == sameInode)
        #expect(try inode("changed.html") != changedInode)
        #expect(read("changed.html") == "new")
        #expect(read("gone.html") == nil)
        #expect(folder.foreignFiles == [])
    }

    /// Only files tomo made are deleted: one put into the output by hand stays, and is named.
    @Test func aFileTomoDidNotMakeIsKeptAndNamed() throws {
        try build(["index.html": "v1", "old.html": "old"])
        for (path, text) in ["notes.txt": "mine", "deep/.hidden": "mine too"] {
            try FileManager.default.createDirectory(at: output.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: output.appendingPathComponent(path), atomically: false, encoding: .utf8)
        }
        for madeBefore: Set<String>? in [["index.html", "old.html"], nil] {
            let folder = try OutputFolder(destination: output, madeBefore: madeBefore)
            try folder.write(Array("v2".utf8), to: "index.html")
            try folder.commit()
            #expect(read("notes.txt") == "mine")
            #expect(read("deep/.hidden") == "mine too")
            #expect(folder.foreignFiles == ["deep/.hidden", "notes.txt"])
        }
        #expect(read("old.html") == nil)
    }

    @Test func aDiscardedRebuildLeavesNoTemporaryFilesOrNewFolders() throws {
        try build(["index.html": "v1"])
        let failing = try OutputFolder(destination: output)
        try failing.write(Array("v2".utf8), to: "index.html")
        try failing.write(Array("new".utf8), to: "carol/posts/x/index.html")
        failing.discard()
        #expect(site(files: output) == [".tomo-output", "index.html"])
        #expect(read("index.html") == "v1")
    }

    @Test func filesLeftByAKilledBuildAreRemovedByTheNextOne() throws {
        try build(["index.html": "v1"])
        try "half".write(to: output.appendingPathComponent("index.html.tomo-new"), atomically: false, encoding: .utf8)
        try build(["index.html": "v2"])
        #expect(site(files: output) == [".tomo-output", "index.html"])
    }

    /// Every file below `folder`, relative, sorted.
    func site(files folder: URL) -> [String] {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    @Test(arguments: ["../escape.html", "/etc/passwd", "a/../../b", "a//b", "./x", "", "a/\0b", "index.html.tomo-new"])
    func refusesPathsThatCouldLeaveTheOutputFolder(path: String) throws {
        let folder = try OutputFolder(destination: output)
        defer { folder.discard() }
        #expect(throws: Diagnostic.self) { try folder.write(Array("x".utf8), to: path) }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escape.html").path))
    }

    @Test func refusesToReplaceAFolderTomoDidNotWrite() throws {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try "my notes".write(to: output.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(throws: Diagnostic.self) { try OutputFolder(destination: output) }
        #expect(read("notes.txt") == "my notes")
    }

    /// A file `linkFile` cannot link to (here a source on another file system, /dev/shm; a file
    /// with as many links as ext4 allows, 65,000, takes the same way) is copied once, and the
    /// other paths that publish it are links to that copy. A rebuild over that output leaves
    /// the copies as they are and links a new path to one of them.
    @Test func aSourceThatCannotBeLinkedIsCopiedOnceAndTheOtherPathsLinkToTheCopy() throws {
        let elsewhere = URL(fileURLWithPath: "/dev/shm/tomo-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let source = elsewhere.appendingPathComponent("thumbnail.jpg")
        try "thumbnail bytes".write(to: source, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        func device(_ path: String) -> UInt64 {
            var status = stat()
            return stat(path, &status) == 0 ? UInt64(status.st_dev) : 0
        }
        try #require(device(elsewhere.path) != device(root.path), "/dev/shm is on the file system of the temporary folder")
        try FileManager.default.removeItem(at: output)

        let paths = ["media/alice/a.jpg", "media/alice/b.jpg", "media/bob/c.jpg"]
        // Each output folder holds its lock until it goes.
        do {
            let first = try OutputFolder(destination: output)
            for path in paths { try first.linkFile(from: source.path, to: path) }
            try first.commit()
        }
        #expect(paths.map(read) == Array(repeating: "thumbnail bytes", count: 3))
        let copy = try inode(paths[0])
        #expect(try paths.map(inode) == [copy, copy, copy])

        let rebuild = try OutputFolder(destination: output, madeBefore: Set(paths))
        for path in paths + ["media/carol/d.jpg"] { try rebuild.linkFile(from: source.path, to: path) }
        #expect(rebuild.counts == OutputFolder.Tally(written: 1, unchanged: 3))
        try rebuild.commit()
        #expect(read("media/carol/d.jpg") == "thumbnail bytes")
        #expect(try (paths + ["media/carol/d.jpg"]).map(inode) == [copy, copy, copy, copy])
    }

    @Test func manyThreadsMayWriteAtOnce() throws {
        let folder = try OutputFolder(destination: output)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            do {
                try folder.write(Array("page \(index)".utf8), to: "u\(index % 20)/p\(index)/index.html")
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        try folder.commit()
        #expect(failures.withLock { $0 } == 0)
        #expect(read("u7/p387/index.html") == "page 387")
        #expect(folder.counts.written == 400)
    }

    @Test func aFirstBuildThatFailsLeavesNoFolder() throws {
        let lock = try OutputLock(destination: output)
        let failing = try OutputFolder(lock: lock, kept: nil, madeBefore: nil)
        try failing.write(Array("v1".utf8), to: "alice/index.html")
        failing.discard()
        lock.release()
        #expect(try siblings() == [])

        // An empty folder made beforehand (a mount point) stays, empty.
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let again = try OutputLock(destination: output)
        try OutputFolder(lock: again, kept: nil, madeBefore: nil).write(Array("v1".utf8), to: "index.html")
        again.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
    }

    /// What a build killed while updating the output left: its waiting files, in any folder.
    @Test func theNextClaimRemovesTheFilesOfABuildKilledWhileUpdating() throws {
        try build(["index.html": "v1", "alice/posts/x/index.html": "post"])
        for leftover in [".tomo-writing-update", "index.html.tomo-new", "alice/posts/x/index.html.tomo-new", "carol/index.html.tomo-new"] {
            let file = output.appendingPathComponent(leftover)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "half".write(to: file, atomically: false, encoding: .utf8)
        }
        let lock = try OutputLock(destination: output)
        #expect(!lock.isNew)
        lock.release()
        #expect(site(files: output) == [".tomo-output", "alice/posts/x/index.html", "index.html"])
        #expect(read("index.html") == "v1")
    }

    /// What a build killed while making a new output left: everything but the marker goes, and
    /// the folder counts as new again.
    @Test func theNextClaimEmptiesAFolderWhoseFirstBuildWasKilled() throws {
        for (path, text) in [".tomo-output": "mark", ".tomo-writing-new": "", "alice/index.html": "half", "index.html": "whole"] {
            let file = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: false, encoding: .utf8)
        }
        let next = try OutputLock(destination: output)
        #expect(next.isNew)
        #expect(site(files: output) == [".tomo-output"])
        next.release()
    }

    @Test func aSecondClaimWaitsForTheFirstAndSaysSo() throws {
        try build(["index.html": "v1"])
        let first = try OutputLock(destination: output)
        let waited = Mutex(false)
        let claimed = DispatchSemaphore(value: 0)
        let destination = output
        Thread.detachNewThread {
            let second = try? OutputLock(destination: destination) { waited.withLock { $0 = true } }
            second?.release()
            claimed.signal()
        }
        #expect(claimed.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(waited.withLock { $0 })
        first.release()
        #expect(claimed.wait(timeout: .now() + 10) == .success)
    }
}
