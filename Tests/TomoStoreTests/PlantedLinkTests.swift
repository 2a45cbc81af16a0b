import Foundation
import Testing
import TomoCore
@testable import TomoStore
import TomoTestSupport

/// Links planted where the store writes or reads: nothing outside the site is written, created
/// or read as the store.
@Suite struct PlantedLinkTests {
    /// A link at the temporary file's name, to a file elsewhere: the write makes its own file,
    /// the file elsewhere keeps its bytes, and store.json is a regular file.
    @Test func aLinkAtTheTemporaryFileIsNotWrittenThrough() throws {
        let site = try TemporarySite()
        try site.addUsers("alice", "bob")
        let elsewhere = try TemporaryFolder(prefix: "tomo-victim")
        try elsewhere.write("victim.txt", "KEEP\n")
        let victim = elsewhere.url.appendingPathComponent("victim.txt")
        try FileManager.default.createSymbolicLink(at: site.store.temporaryURL, withDestinationURL: victim)
        try site.apply { store throws(Diagnostic) in try store.follow("alice", "bob") }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "KEEP\n")
        var status = stat()
        #expect(lstat(site.storeURL.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        #expect(try site.read().follows.count == 1)
    }

    /// A link at the lock's name, to nowhere: refused with the fix, and no file is made where
    /// it points.
    @Test func aLinkAtTheLockIsRefused() throws {
        let site = try TemporarySite()
        let elsewhere = try TemporaryFolder(prefix: "tomo-victim")
        let target = elsewhere.url.appendingPathComponent("made-by-tomo")
        try FileManager.default.createDirectory(at: site.store.lockURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: site.store.lockURL, withDestinationURL: target)
        #expect(throws: Diagnostic.self) { try site.addUsers("alice") }
        do { try site.addUsers("alice") } catch {
            #expect((error as? Diagnostic)?.message.contains("is a symbolic link") == true, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// store.json a link to a file outside the site: an error at the link, as for any content
    /// file, by the commands and the build alike.
    @Test func aStoreThatLinksOutOfTheSiteIsRefused() throws {
        let site = try TemporarySite()
        let elsewhere = try TemporaryFolder(prefix: "tomo-outside")
        try elsewhere.write("store.json", "{\"version\": 2, \"users\": []}\n")
        try FileManager.default.createSymbolicLink(at: site.storeURL, withDestinationURL: elsewhere.url.appendingPathComponent("store.json"))
        do {
            _ = try site.read()
            Issue.record("the store was read through the link")
        } catch {
            #expect("\(error)".contains("content/store.json:1:1: this is a symbolic link to"), "\(error)")
        }
    }
}
