import Foundation
import Testing
import TomoCore
@testable import TomoImages
import TomoTestSupport

/// An image the build cannot make into thumbnails is refused, with one message, by the build
/// (`ImageProcessor`), by `tomo check` (`ImageInspector`) and by `tomo post add`
/// (`ImageProcessor.verify`) alike; an image the build can make passes all three.
@Suite struct BuildableImageTests {
    private static let place = TomoCore.SourceLocation(file: "content/posts/alice/t.md", line: 2, column: 8)

    /// What each of the three says of `file`: nil when it accepts it.
    private static func verdicts(_ file: URL, displayPath: String) throws -> (build: Diagnostic?, check: Diagnostic?, postAdd: Diagnostic?) {
        let folder = try TemporaryFolder()
        let source = ImageSource(file: file, displayPath: displayPath, referencedAt: place)
        func failure(_ body: () throws(Diagnostic) -> Void) -> Diagnostic? {
            do throws(Diagnostic) {
                try body()
                return nil
            } catch {
                return error
            }
        }
        let build = failure { () throws(Diagnostic) in _ = try ImageProcessor(cacheFolder: folder.cache).process(source) }
        let check = failure { () throws(Diagnostic) in _ = try ImageInspector(cacheFolder: folder.url.appendingPathComponent("no-cache")).process(source) }
        let postAdd = failure { () throws(Diagnostic) in try ImageProcessor.verify(ImageSource(file: file, displayPath: displayPath)) }
        return (build, check, postAdd)
    }

    /// A strip more than 16,383 times as tall as it is wide has no thumbnail WebP can hold, at
    /// any width (`tomo build` used to fail on it at the encoder, after `tomo check` passed).
    @Test(arguments: [(1, 16384), (1, 20000), (1, 32767), (2, 40000), (1, 200000)])
    func aStripTooTallForAnyThumbnailIsRefusedByAllThree(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("t.png", PNGBytes.grey(width: width, height: height))
        let (build, check, postAdd) = try Self.verdicts(file, displayPath: "content/posts/alice/t.png")
        let reason = "\(width)×\(height) pixels is more than 16383 times as tall as it is wide, so even a thumbnail 1 pixel wide would be taller than the 16383 pixels WebP allows: crop it, or cut it into parts at most 16383 times as tall as they are wide"
        #expect(build?.description == "content/posts/alice/t.md:2:8: content/posts/alice/t.png: \(reason)")
        #expect(check == build)
        #expect(postAdd?.description == "content/posts/alice/t.png: \(reason)")
    }

    /// Tall images that some width fits are made, narrower where needed.
    @Test(arguments: [(1, 16383, 1, 16383), (100, 20000, 81, 16200), (3, 49149, 1, 16383)])
    func aTallImageSomeWidthFitsIsMadeNarrower(width: Int, height: Int, madeWidth: Int, madeHeight: Int) throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("t.png", PNGBytes.grey(width: width, height: height))
        let (build, check, postAdd) = try Self.verdicts(file, displayPath: "t.png")
        #expect(build == nil && check == nil && postAdd == nil, "\(String(describing: build ?? check ?? postAdd))")
        let made = try ImageProcessor(cacheFolder: folder.cache).process(ImageSource(file: file, displayPath: "t.png"))
        #expect(made.variants.map { [$0.width, $0.height] } == [[madeWidth, madeHeight], [madeWidth, madeHeight]])
    }

    @Test func theRuleIsOnePixelWideAtMostWebpsHeight() {
        #expect(TargetWidths.fits(originalWidth: 1, originalHeight: 16383))
        #expect(!TargetWidths.fits(originalWidth: 1, originalHeight: 16384))
        #expect(TargetWidths.fits(originalWidth: 2, originalHeight: 32766))
        #expect(!TargetWidths.fits(originalWidth: 2, originalHeight: 32767))
        #expect(TargetWidths.fits(originalWidth: 40000, originalHeight: 1))
        #expect(!TargetWidths.fits(originalWidth: 0, originalHeight: 1))
    }

    /// A JPEG cut off part-way and a PNG that is only a header (20000×12000 declared, under
    /// the megapixel limit) have good headers: only decoding finds them out, and the check and
    /// `tomo post add` decode them as the build does.
    @Test(arguments: ["cut", "header"])
    func aDamagedImageWithAGoodHeaderIsRefusedByAllThree(kind: String) throws {
        let folder = try TemporaryFolder()
        let file = kind == "cut"
            ? try folder.file("cut.jpg", Array(try bytes(of: fixture("landscape.jpg")).prefix(4000)))
            : try folder.file("header.png", PNGBytes.headerOnly(width: 20000, height: 12000))
        _ = try ImageProcessor.libvipsVersion()  // started before any other call
        #expect(try Vips.header(of: file).width > 0)
        let (build, check, postAdd) = try Self.verdicts(file, displayPath: "content/posts/alice/\(file.lastPathComponent)")
        let made = try #require(build)
        #expect(made.message.hasPrefix("content/posts/alice/\(file.lastPathComponent): the image is damaged or incomplete ("), "\(made)")
        #expect(made.location == Self.place)
        #expect(check == build)
        #expect(postAdd?.message == made.message)
    }

    /// An image over 250 megapixels is refused from its header alone, by all three, with the fix.
    @Test(arguments: [(20_000, 13_000, "20000×13000 pixels is larger than the 250 megapixels Tomo accepts: scale it down"), (16_000, 15_626, "16000×15626 pixels is larger")])
    func anImageTooLargeOrOfNoPixelsIsRefusedWithTheFix(width: Int, height: Int, message: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("header.png", PNGBytes.headerOnly(width: width, height: height))
        _ = try ImageProcessor.libvipsVersion()
        let (build, check, postAdd) = try Self.verdicts(file, displayPath: "content/posts/alice/header.png")
        let made = try #require(build)
        #expect(made.message.hasPrefix("content/posts/alice/header.png: " + message), "\(made)")
        #expect(check == build)
        #expect(postAdd?.message == made.message)
    }

    /// After a build made an image, a check does not decode it again (the cache vouches for the
    /// file with the stamp the build recorded: here given with damaged bytes, which only a
    /// decode would find) and writes nothing to the cache; a check of a folder without a cache
    /// makes none.
    @Test func theCheckTrustsTheCacheForTheFileABuildMadeAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let good = try bytes(of: fixture("landscape.jpg"))
        let file = try folder.file("photo.jpg", good)
        let source = ImageSource(file: file, displayPath: "photo.jpg")
        #expect(try ImageProcessor(cacheFolder: folder.cache).process([source])[0].get().variants.count == 2)
        let built = try #require(FileStamp(path: file.path))
        let before = filesUnder(folder.cache)
        try Data(good.prefix(4000)).write(to: file)
        var asBuilt = source
        asBuilt.stamp = built
        #expect(try ImageInspector(cacheFolder: folder.cache).process(asBuilt).variants.count == 2)
        #expect(throws: Diagnostic.self) { try ImageInspector(cacheFolder: folder.cache).process(source) }
        #expect(throws: Diagnostic.self) { try ImageInspector().process(asBuilt) }
        #expect(filesUnder(folder.cache) == before)
        let none = folder.url.appendingPathComponent("none")
        _ = try ImageInspector(cacheFolder: none).process(ImageSource(file: fixture("landscape.jpg"), displayPath: "photo.jpg"))
        #expect(!FileManager.default.fileExists(atPath: none.path))
    }

}
