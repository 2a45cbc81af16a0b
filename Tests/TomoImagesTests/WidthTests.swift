import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

@Suite struct WidthTests {
    @Test func planNeverEnlargesAndKeepsTheOriginalOnce() {
        let widths = [320, 640, 1280]
        #expect(TargetWidths.plan(configured: widths, originalWidth: 4000, originalHeight: 3000) == [320, 640, 1280])
        #expect(TargetWidths.plan(configured: widths, originalWidth: 1000, originalHeight: 750) == [320, 640, 1000])
        #expect(TargetWidths.plan(configured: widths, originalWidth: 640, originalHeight: 480) == [320, 640])
        #expect(TargetWidths.plan(configured: widths, originalWidth: 48, originalHeight: 48) == [48])
        #expect(TargetWidths.plan(configured: [1280, 320, 320], originalWidth: 2000, originalHeight: 1000) == [320, 1280])
    }

    @Test func planKeepsBothSidesWithinWebpLimits() {
        #expect(TargetWidths.plan(configured: [16000], originalWidth: 30000, originalHeight: 1000) == [16000])
        #expect(TargetWidths.plan(configured: [16383], originalWidth: 20000, originalHeight: 1000) == [16383])
        // A 1000×40000 scroll: 1000 wide would be 40000 tall; 409 wide is 16360 tall.
        #expect(TargetWidths.plan(configured: [320, 1280], originalWidth: 1000, originalHeight: 40000) == [320, 409])
    }

    @Test func aSmallIconGetsOneVariantAtItsOwnSize() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache)  // 320, 640, 1280
        let image = try processor.variants(for: fixture("transparent.png"), displayPath: "icon.png")
        #expect(image.variants.map(\.width) == [200, 200])
        #expect(image.variants.map(\.height) == [120, 120])
        #expect(image.variants.map(\.format) == [.webp, .jpeg])
    }

    /// The widths a `srcset` gives as descriptors are the variants' own, read from the files.
    @Test func variantWidthsAreTheFilesRealWidths() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100, 250, 1280])
        let image = try processor.variants(for: fixture("landscape.jpg"), displayPath: "content/posts/alice/Sunset Photo.JPG")
        for format in ImageFormat.allCases {
            let variants = image.variants(in: format)
            #expect(variants.map(\.width) == [100, 250, 320])
            for variant in variants {
                let header = try Vips.header(of: variant.file)
                #expect((header.width, header.height) == (variant.width, variant.height), "\(variant.fileName)")
            }
        }
    }

    @Test func fileNamesCarryTheContentHashAndRealWidth() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
        let image = try processor.variants(for: fixture("landscape.jpg"), displayPath: "content/posts/alice/Sunset Photo.JPG")
        for variant in image.variants {
            let hash = SHA256.hex(of: try bytes(of: variant.file))
            #expect(variant.fileName == "sunset-photo-\(hash.prefix(8))-100.\(variant.format.fileExtension)")
            #expect(variant.byteCount == (try bytes(of: variant.file)).count)
        }
    }

    @Test func publishedNamesNeedNoEscaping() {
        #expect(PublishedName.stem(of: "content/users/alice/icon.jpg") == "icon")
        #expect(PublishedName.stem(of: "a/My Holiday (2).JPEG") == "my-holiday-2")
        #expect(PublishedName.stem(of: "写真.png") == "image")
        #expect(PublishedName.stem(of: ".hidden") == "image")
        #expect(PublishedName.stem(of: "snake_case-name.webp") == "snake_case-name")
        #expect(PublishedName.stem(of: String(repeating: "a", count: 60) + ".jpg").count == 40)
    }

    /// The stem made from the bytes of an ASCII name is the one Unicode's lowercasing makes, on
    /// seeded paths of every ASCII byte (control bytes, dots, slashes, long runs of separators).
    @Test func asciiStemsAreTheUnicodeStems() {
        var random = SplitMix64(seed: 0x57e3)
        let alphabet = Array("aZ09_-. /(x\u{1}\u{7f}Q.") + (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...70, using: &random)
            let path = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            #expect(PublishedName.stem(of: path) == PublishedName.unicodeStem(of: path), "\(path.debugDescription)")
        }
    }
}
