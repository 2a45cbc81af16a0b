import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// transparent.png is 200×120 orange with its left half fully transparent.
@Suite struct TransparencyTests {
    @Test func webpKeepsAlphaAndJpegIsFlattened() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache)
        let image = try processor.variants(for: fixture("transparent.png"), displayPath: "content/users/alice/logo.png")
        #expect(image.hasAlpha)
        let webp = try #require(image.largest(in: .webp))
        let webpBytes = try bytes(of: webp.file)
        #expect(MetadataScanner.webpHasAlpha(webpBytes))
        #expect(try Vips.header(of: webp.file).hasAlpha)

        let jpeg = try #require(image.largest(in: .jpeg))
        let jpegHeader = try Vips.header(of: jpeg.file)
        #expect(jpegHeader.format == "jpeg")
        #expect(!jpegHeader.hasAlpha)
    }

    @Test func pngCommentAndXmpAreRemoved() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache)
        let image = try processor.variants(for: fixture("transparent.png"), displayPath: "logo.png")
        for variant in image.variants {
            #expect(MetadataScanner.metadata(in: try bytes(of: variant.file)) == [], "\(variant.fileName)")
        }
    }
}
