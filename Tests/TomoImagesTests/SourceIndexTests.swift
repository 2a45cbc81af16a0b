import Foundation
import Testing
@testable import TomoImages
import TomoCore
import TomoTestSupport

/// The image cache's index keeps manifests for the next build only while they still describe
/// the cache folder: a thumbnail deleted, added or renamed there is never taken on trust.
@Suite struct SourceIndexTests {
    private static let pipeline = "test pipeline"
    private static let manifest = CacheManifest(
        pipeline: pipeline, width: 640, height: 480, hasAlpha: false,
        entries: [.init(format: .webp, quality: 80, target: 320, width: 320, height: 240, contentHash: String(repeating: "ab", count: 32), byteCount: 1234)]
    )
    private static let stamp = FileStamp(size: 10, inode: 7, modified: 1, changed: 2)
    private static let hash = String(repeating: "cd", count: 32)

    /// An index of `cache` with one image recorded and saved; `racyWindow` 0 so that a stamp
    /// taken a moment ago counts as old enough.
    private static func saved(in cache: URL, racyWindow: Int64 = 0, before save: () throws -> Void = {}) throws {
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let index = SourceIndex(folder: cache, pipeline: pipeline, racyWindow: racyWindow)
        index.record(hash, of: "/site/photo.jpg", stamp: stamp)
        index.remember(manifest, of: hash)
        try save()
        index.save()
    }

    @Test func anUnchangedFolderKeepsItsManifests() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache)
        let again = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
        #expect(again.hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
        #expect(again.manifest(of: Self.hash) == Self.manifest)
    }

    @Test(arguments: ["added", "deleted", "renamed"])
    func aFileChangedInTheFolderAfterTheSaveDropsTheManifests(change: String) throws {
        let folder = try TemporaryFolder()
        let thumbnail = folder.cache.appendingPathComponent("thumbnail.webp")
        try FileManager.default.createDirectory(at: folder.cache, withIntermediateDirectories: true)
        if change != "added" { try Data([1, 2, 3]).write(to: thumbnail) }
        try Self.saved(in: folder.cache)
        switch change {
        case "added": try Data([1, 2, 3]).write(to: thumbnail)
        case "deleted": try FileManager.default.removeItem(at: thumbnail)
        default: try FileManager.default.moveItem(at: thumbnail, to: folder.cache.appendingPathComponent("moved.webp"))
        }
        let again = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
        #expect(again.manifest(of: Self.hash) == nil)
        // The source hashes go by the sources' own stamps, not the folder's.
        #expect(again.hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
    }

    @Test func aFolderChangedWhileTheBuildRanSavesNoManifest() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache) {
            try Data([1]).write(to: folder.cache.appendingPathComponent("written-meanwhile.webp"))
        }
        #expect(SourceIndex(folder: folder.cache, pipeline: Self.pipeline).manifest(of: Self.hash) == nil)
    }

    @Test func aFolderStampTooRecentWhenTheBuildBeganSavesNoManifest() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache, racyWindow: 3_600_000_000_000)
        let again = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
        #expect(again.manifest(of: Self.hash) == nil)
        #expect(again.hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
    }

    /// Builds in quick succession (a script, the tests) check the manifests every time while
    /// the folder is new; with no new source hash, none of them rewrites the index for that.
    @Test func manifestsThatCannotBeKeptWriteNothing() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache, racyWindow: 3_600_000_000_000)
        let file = folder.cache.appendingPathComponent("index/sources")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        let again = SourceIndex(folder: folder.cache, pipeline: Self.pipeline, racyWindow: 3_600_000_000_000)
        again.remember(Self.manifest, of: Self.hash)
        again.save()
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == before)
        // A new source hash is written at once.
        again.record(Self.hash, of: "/site/other.jpg", stamp: Self.stamp)
        again.save()
        #expect(SourceIndex(folder: folder.cache, pipeline: Self.pipeline).hash(of: "/site/other.jpg", stamp: Self.stamp) == Self.hash)
    }

    /// After an upgrade, the hashes an older tomo kept in its text file are taken over (no photo
    /// is read again), and the file goes; a damaged line is skipped.
    @Test func theHashesOfTheOlderTextFileAreTakenOver() throws {
        let folder = try TemporaryFolder()
        let legacy = folder.cache.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: folder.cache, withIntermediateDirectories: true)
        let other = String(repeating: "0f", count: 32)
        try Data("""
        10 7 1 2 \(Self.hash) /site/photo.jpg
        11 8 3 4 \(other) /site/a b.jpg
        12 9 5 6 not-a-hash /site/damaged.jpg
        13 x 5 6 \(other) /site/short.jpg

        """.utf8).write(to: legacy)
        let index = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
        #expect(index.hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
        #expect(index.hash(of: "/site/a b.jpg", stamp: FileStamp(size: 11, inode: 8, modified: 3, changed: 4)) == other)
        #expect(index.hash(of: "/site/damaged.jpg", stamp: FileStamp(size: 12, inode: 9, modified: 5, changed: 6)) == nil)
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        index.save()
        #expect(SourceIndex(folder: folder.cache, pipeline: Self.pipeline).hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
    }

    /// A link planted where the index's folder is: the index is not written through it.
    @Test func aLinkInPlaceOfTheIndexFolderIsNotWrittenThrough() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder(prefix: "tomo-elsewhere")
        try FileManager.default.createDirectory(at: folder.cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.cache.appendingPathComponent("index").path, withDestinationPath: elsewhere.path)
        let index = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
        index.record(Self.hash, of: "/site/photo.jpg", stamp: Self.stamp)
        index.save()
        #expect(filesUnder(elsewhere.url).isEmpty)
    }

    @Test func anotherPipelineKeepsTheHashesButNotTheManifests() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache)
        let other = SourceIndex(folder: folder.cache, pipeline: "another libvips")
        #expect(other.manifest(of: Self.hash) == nil)
        #expect(other.hash(of: "/site/photo.jpg", stamp: Self.stamp) == Self.hash)
    }

    /// Every single byte changed, and the file cut at every length: nothing is read from it.
    @Test func aDamagedIndexIsIgnoredWhole() throws {
        let folder = try TemporaryFolder()
        try Self.saved(in: folder.cache)
        let file = folder.cache.appendingPathComponent("index/sources")
        let original = try bytes(of: file)
        var damaged: [[UInt8]] = (0..<original.count).map { var copy = original; copy[$0] ^= 0x20; return copy }
        damaged += (0..<original.count).map { Array(original.prefix($0)) }
        for bytes in damaged {
            try Data(bytes).write(to: file)
            let index = SourceIndex(folder: folder.cache, pipeline: Self.pipeline)
            #expect(index.hash(of: "/site/photo.jpg", stamp: Self.stamp) == nil)
            #expect(index.manifest(of: Self.hash) == nil)
        }
    }

    /// End to end, with the real two-second window: a thumbnail deleted after a build that saved
    /// its manifests is encoded again, and only that one.
    @Test func aThumbnailDeletedUnderATrustedIndexIsEncodedAgain() throws {
        let folder = try TemporaryFolder()
        let sources = [ImageSource(file: fixture("landscape.jpg"), displayPath: "a.jpg"), ImageSource(file: fixture("transparent.png"), displayPath: "b.png")]
        let first = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200]).process(sources).map { try $0.get() }
        // Old enough, and checked by a build that found the folder as it was: saved for the next.
        Thread.sleep(forTimeInterval: 2.1)
        let checking = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
        #expect(try checking.process(sources).map { try $0.get() } == first)
        #expect(checking.encodeCount == 0)
        let trusted = SourceIndex(folder: folder.cache, pipeline: try Self.pipelineOfCache(folder.cache))
        for source in sources {
            let stamp = try #require(FileStamp(path: source.path))
            let hash = try #require(trusted.hash(of: source.path, stamp: stamp))
            #expect(trusted.manifest(of: hash) != nil)
        }

        let victim = try #require(first[0].variants.first)
        try FileManager.default.removeItem(at: victim.file)
        let after = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
        #expect(try after.process(sources).map { try $0.get() } == first)
        #expect(after.encodeCount == 1)
        #expect(FileManager.default.fileExists(atPath: victim.file.path))
    }

    /// The pipeline a cache's manifests name (libvips' version is in it).
    private static func pipelineOfCache(_ cache: URL) throws -> String {
        let name = try #require(filesUnder(cache).first { $0.hasSuffix(".json") })
        let json = try JSONParser.parse(bytes: bytes(of: cache.appendingPathComponent(name)), file: name)
        return try #require(json["pipeline"]?.stringValue)
    }
}
