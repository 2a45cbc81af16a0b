import Foundation
import Testing
import TomoCore
@testable import TomoImages
import TomoTestSupport

/// A site icon is the middle square of its image, cut before it is scaled: a thin strip is
/// not first enlarged to cover the square (a 1 × 16,383 strip made 512 × 8,386,000 pixels, and
/// ran out of memory, where a profile icon of it took a moment).
@Suite struct SiteIconShapeTests {
    @Test(arguments: [(1, 16_383), (16_383, 1), (3, 2_000), (640, 480)])
    func everySizeIsASquareOfTheImagesMiddle(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        try folder.write("icon.png", bytes: PNGBytes.grey(width: width, height: height, level: 90))
        let source = ImageSource(file: folder.url.appendingPathComponent("icon.png"), displayPath: "content/icon.png")
        let icons = try IconMaker(cacheFolder: folder.url.appendingPathComponent("cache")).icons(of: source)
        #expect(icons.map(\.size) == IconMaker.sizes)
        for icon in icons {
            let pixels = try Vips.pixels(of: URL(fileURLWithPath: icon.path))
            #expect(pixels.width == icon.size && pixels.height == icon.size)
            #expect(pixels.values.allSatisfy { abs(Int($0) - 90) <= 2 }, "\(icon.size)")
        }
    }
}
