import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// What published files show, read back pixel by pixel (lossy encoders move values a little,
/// hence the tolerances).
@Suite struct PixelTests {
    private func process(_ name: String, widths: [Int] = [1280]) throws -> (ProcessedImage, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: widths)
        return (try processor.variants(for: fixture(name), displayPath: name), folder)
    }

    private func isClose(_ actual: [Double], _ expected: [Double], within tolerance: Double = 10) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test(arguments: ImageFormat.allCases)
    func orientationSixTurnsClockwise(format: ImageFormat) throws {
        // Stored left edge (blue) must become the top edge; stored right edge (red) the bottom.
        let (image, folder) = try process("landscape.jpg")
        let variant = try #require(image.largest(in: format))
        let top = try Vips.pixel(of: variant.file, x: variant.width / 2, y: 4)
        let bottom = try Vips.pixel(of: variant.file, x: variant.width / 2, y: variant.height - 5)
        #expect(top[2] > 200 && top[0] < 50, "top \(top)")
        #expect(bottom[0] > 200 && bottom[2] < 50, "bottom \(bottom)")
        _ = folder
    }

    @Test func transparentPartsAreTransparentInWebpAndWhiteInJpeg() throws {
        let (image, folder) = try process("transparent.png")
        let webp = try #require(image.largest(in: .webp))
        #expect(try Vips.pixel(of: webp.file, x: 20, y: 60)[3] == 0)
        #expect(isClose(try Vips.pixel(of: webp.file, x: 160, y: 60), [255, 128, 0, 255]))
        let jpeg = try #require(image.largest(in: .jpeg))
        #expect(isClose(try Vips.pixel(of: jpeg.file, x: 20, y: 60), [255, 255, 255]))
        #expect(isClose(try Vips.pixel(of: jpeg.file, x: 160, y: 60), [255, 128, 0]))
        _ = folder
    }

    @Test func greyWithAlphaIsFlattenedOnWhite() throws {
        let (image, folder) = try process("greyalpha.png")
        let jpeg = try #require(image.largest(in: .jpeg))
        #expect(isClose(try Vips.pixel(of: jpeg.file, x: 5, y: 15), [255]))
        #expect(isClose(try Vips.pixel(of: jpeg.file, x: 35, y: 15), [90]))
        let webp = try #require(image.largest(in: .webp))
        #expect(try Vips.pixel(of: webp.file, x: 5, y: 15).last == 0)
        _ = folder
    }

    @Test(arguments: ImageFormat.allCases)
    func adobeRgbIsConvertedToSrgbBeforeItsProfileIsDropped(format: ImageFormat) throws {
        // (50, 200, 50) in Adobe RGB is about (0, 201, 8) in sRGB; dropping the profile without
        // converting would publish the raw (50, 200, 50).
        let (image, folder) = try process("adobe-rgb.jpg")
        let variant = try #require(image.largest(in: format))
        #expect(MetadataScanner.metadata(in: try bytes(of: variant.file)) == [])
        #expect(isClose(try Vips.pixel(of: variant.file, x: 30, y: 20), [0, 201, 8]))
        _ = folder
    }

    @Test func cmykJpegBecomesRgb() throws {
        let (image, folder) = try process("cmyk.jpg")
        for variant in image.variants {
            #expect(isClose(try Vips.pixel(of: variant.file, x: 30, y: 20), [125, 176, 55]), "\(variant.fileName)")
        }
        _ = folder
    }

    @Test func sixteenBitPngBecomesEightBit() throws {
        let (image, folder) = try process("deep.png")
        for variant in image.variants {
            #expect(isClose(try Vips.pixel(of: variant.file, x: 20, y: 15), [128, 64, 192]), "\(variant.fileName)")
        }
        _ = folder
    }
}
