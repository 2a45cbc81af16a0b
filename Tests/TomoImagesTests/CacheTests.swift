import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// A rebuild encodes nothing that did not change, and the cache never writes outside its folder.
@Suite struct CacheTests {
    /// A cached file's path is one path however it is split: equal, and equal hashes, as the
    /// table of published files (one key per output path) relies on.
    @Test func aCachedPathIsTheSameSplitAnywhere() {
        let thumbnail = CachedFilePath(head: "/cache/3fa0", tail: "-q80-640.webp")
        let whole = CachedFilePath(head: "/cache/3fa0-q80-640.webp")
        #expect(thumbnail == whole && thumbnail.text == whole.text)
        #expect(Set([thumbnail, whole]).count == 1)
        #expect(thumbnail != CachedFilePath(head: "/cache/3fa0", tail: "-q80-320.webp"))
        #expect(CachedFilePath(head: "/a", tail: "b") != CachedFilePath(head: "/ab", tail: "c"))
    }

    @Test func secondRunEncodesNothingAndRewritesNothing() throws {
        let folder = try TemporaryFolder()
        let first = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200, 1280])
        let original = try first.variants(for: fixture("landscape.jpg"), displayPath: "landscape.jpg")
        #expect(first.encodeCount == 6)  // 100, 200 and 320 (the original), in two formats
        let cacheFiles = filesUnder(folder.cache)
        let dates = try cacheFiles.map { try modificationDate(of: folder.cache.appendingPathComponent($0)) }
        Thread.sleep(forTimeInterval: 0.02)

        let second = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200, 1280])
        let again = try second.variants(for: fixture("landscape.jpg"), displayPath: "landscape.jpg")
        #expect(second.encodeCount == 0)
        #expect(again == original)
        #expect(filesUnder(folder.cache) == cacheFiles)
        #expect(try cacheFiles.map { try modificationDate(of: folder.cache.appendingPathComponent($0)) } == dates)
    }

    @Test func addingAWidthEncodesOnlyThatWidth() throws {
        let folder = try TemporaryFolder()
        _ = try ImageProcessor(cacheFolder: folder.cache, widths: [100]).variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        let wider = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
        let image = try wider.variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        #expect(wider.encodeCount == 2)
        #expect(image.variants(in: .webp).map(\.width) == [100, 200])
    }

    @Test func changingQualityReencodes() throws {
        let folder = try TemporaryFolder()
        let low = try ImageProcessor(cacheFolder: folder.cache, widths: [200], quality: 40)
        let high = try ImageProcessor(cacheFolder: folder.cache, widths: [200], quality: 90)
        let small = try low.variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        let large = try high.variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        #expect(high.encodeCount == 2)
        #expect(small.largest(in: .jpeg)?.fileName != large.largest(in: .jpeg)?.fileName)
    }

    @Test func aDeletedCacheFileIsEncodedAgain() throws {
        let folder = try TemporaryFolder()
        let image = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
            .variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        let victim = try #require(image.variants.first)
        try FileManager.default.removeItem(at: victim.file)
        let again = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
        #expect(try again.variants(for: fixture("landscape.jpg"), displayPath: "a.jpg") == image)
        #expect(again.encodeCount == 1)
    }

    @Test func changedSourceBytesAreEncoded() throws {
        let folder = try TemporaryFolder()
        let source = try folder.file("photo.png", try bytes(of: fixture("transparent.png")))
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
        let before = try processor.variants(for: source, displayPath: "photo.png")
        _ = try folder.file("photo.png", try bytes(of: fixture("landscape.jpg")))
        let after = try processor.variants(for: source, displayPath: "photo.png")
        #expect(processor.encodeCount == 4)
        #expect(before.width == 200)
        #expect(after.width == 320)
    }

    @Test func writesOnlyInsideTheCacheFolderAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let source = try folder.file("photo.jpg", try bytes(of: fixture("landscape.jpg")))
        let cache = folder.url.appendingPathComponent(".tomo-cache/images")
        let processor = try ImageProcessor(cacheFolder: cache)
        _ = processor.process([
            ImageSource(file: source, displayPath: "photo.jpg"),
            ImageSource(file: fixture("transparent.png"), displayPath: "logo.png"),
        ])
        let outside = filesUnder(folder.url).filter { !$0.hasPrefix(".tomo-cache/images/") }
        #expect(outside == ["photo.jpg"])
        let inside = filesUnder(cache)
        #expect(inside.contains(".gitignore"))
        #expect(!inside.contains { $0.hasSuffix(".tmp") })
        #expect(inside.filter { $0.hasSuffix(".json") }.count == 2)
    }

    @Test func theSameImageTwiceInOneBatchGivesTheSameVariants() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 200])
        let sources = (0..<6).map { ImageSource(file: fixture("landscape.jpg"), displayPath: "copy\($0)/landscape.jpg") }
        let results = processor.process(sources).map { try? $0.get() }
        let first = try #require(results[0])
        for result in results {
            #expect(result?.variants == first.variants)
        }
    }

    @Test func anEmptyBatchGivesNoResults() throws {
        let folder = try TemporaryFolder()
        #expect(try ImageProcessor(cacheFolder: folder.cache).process([]).isEmpty)
    }

    @Test func aDamagedManifestOnlyCostsAReencode() throws {
        let folder = try TemporaryFolder()
        let image = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
            .variants(for: fixture("landscape.jpg"), displayPath: "a.jpg")
        let manifest = try #require(filesUnder(folder.cache).first { $0.hasSuffix(".json") })
        try Data("{ not json".utf8).write(to: folder.cache.appendingPathComponent(manifest))
        let again = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
        #expect(try again.variants(for: fixture("landscape.jpg"), displayPath: "a.jpg") == image)
        #expect(again.encodeCount == 2)
    }
}
