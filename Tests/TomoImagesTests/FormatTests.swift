import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// Every accepted input format gives WebP and JPEG thumbnails of the same picture.
@Suite struct FormatTests {
    @Test(arguments: ["photo.heic", "photo.webp", "photo.gif", "landscape.jpg", "transparent.png"])
    func acceptedFormatsGiveBothOutputs(name: String) throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [32, 1280])
        let image = try processor.variants(for: fixture(name), displayPath: name)
        #expect(image.variants.map(\.format) == [.webp, .webp, .jpeg, .jpeg])
        for variant in image.variants {
            let header = try Vips.header(of: variant.file)
            #expect(header.format == (variant.format == .webp ? "webp" : "jpeg"))
            #expect(MetadataScanner.metadata(in: try bytes(of: variant.file)) == [], "\(variant.fileName)")
        }
    }

    @Test(arguments: ["photo.heic", "photo.webp", "photo.gif"])
    func colourSurvivesEachFormat(name: String) throws {
        // Each fixture is a flat (50, 200, 50) 64×48 picture.
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache)
        let image = try processor.variants(for: fixture(name), displayPath: name)
        #expect((image.width, image.height) == (64, 48))
        for variant in image.variants {
            let pixel = try Vips.pixel(of: variant.file, x: 30, y: 20)
            #expect(zip(pixel, [50.0, 200, 50]).allSatisfy { abs($0 - $1) <= 10 }, "\(variant.fileName): \(pixel)")
        }
    }
}
