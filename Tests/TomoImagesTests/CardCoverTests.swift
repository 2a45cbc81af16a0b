import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// The pictures on a share card are scaled and cropped by the card's own code (`tomo_card_cover`),
/// not by libvips' thumbnailer: checked here against exact expectations (a flat colour stays
/// exactly that colour, the crop is centred) and against libvips on seeded pictures.
@Suite struct CardCoverTests {
    /// A binary PPM of `width` × `height` whose colour at each pixel is `colour(x, y)`.
    static func ppm(width: Int, height: Int, colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = colour(x, y)
                bytes += [red, green, blue]
            }
        }
        return bytes
    }

    static func cover(_ file: URL, _ width: Int, _ height: Int) throws -> TomoImages.Pixels {
        try TomoImages.Pixels(covering: width, height, with: file.path)
    }

    static func at(_ pixels: TomoImages.Pixels, _ x: Int, _ y: Int) -> [Int] {
        let start = (y * pixels.width + x) * pixels.bands
        return pixels.bytes[start..<start + 3].map(Int.init)
    }

    @Test(arguments: [(1, 1, 88, 88), (300, 200, 630, 630), (1280, 853, 630, 630), (1280, 427, 1200, 630), (5, 3000, 160, 160)])
    func aFlatColourStaysExactlyThatColour(width: Int, height: Int, boxWidth: Int, boxHeight: Int) throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("flat.ppm", Self.ppm(width: width, height: height) { _, _ in (201, 17, 99) })
        let pixels = try Self.cover(file, boxWidth, boxHeight)
        #expect((pixels.width, pixels.height, pixels.bands) == (boxWidth, boxHeight, 3))
        #expect(Set(stride(from: 0, to: pixels.bytes.count, by: 3).map { pixels.bytes[$0..<$0 + 3].map(Int.init) }) == [[201, 17, 99]])
    }

    /// Four quadrants of different colours: scaled to cover any box, their corner must land in the
    /// middle of the box (the crop is centred, on both axes), and each corner of the box keeps
    /// its quadrant's colour.
    @Test func theCropIsTakenFromTheMiddle() throws {
        let folder = try TemporaryFolder()
        let colours: [[Int]] = [[250, 0, 0], [0, 250, 0], [0, 0, 250], [250, 250, 0]]
        var random = SplitMix64(seed: 20_261_201)
        for _ in 0..<12 {
            let (width, height) = (2 * Int.random(in: 20...700, using: &random), 2 * Int.random(in: 20...700, using: &random))
            let (boxWidth, boxHeight) = (Int.random(in: 16...1200, using: &random), Int.random(in: 16...700, using: &random))
            let file = try folder.file("quadrants.ppm", Self.ppm(width: width, height: height) { x, y in
                let colour = colours[(x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2)]
                return (UInt8(colour[0]), UInt8(colour[1]), UInt8(colour[2]))
            })
            let pixels = try Self.cover(file, boxWidth, boxHeight)
            let label = "\(width)×\(height) → \(boxWidth)×\(boxHeight)"
            let corners = [(0, 0), (boxWidth - 1, 0), (0, boxHeight - 1), (boxWidth - 1, boxHeight - 1)]
            for (colour, (x, y)) in zip(colours, corners) {
                #expect(Self.at(pixels, x, y) == colour, "\(label): corner (\(x), \(y))")
            }
            // Along the middle row and column, the colour changes within two pixels of the middle.
            let row = (0..<boxWidth).map { Self.at(pixels, $0, boxHeight / 4)[0] > 125 }
            let column = (0..<boxHeight).map { Self.at(pixels, boxWidth / 4, $0)[2] > 125 }
            let rowEdge = row.firstIndex(of: false) ?? boxWidth, columnEdge = column.firstIndex(of: true) ?? boxHeight
            #expect(abs(rowEdge - boxWidth / 2) <= 2, "\(label): the colours meet at x \(rowEdge)")
            #expect(abs(columnEdge - boxHeight / 2) <= 2, "\(label): the colours meet at y \(columnEdge)")
        }
    }

    /// Differential: on seeded smooth pictures, in PNG and in JPEG (which is shrunk while it is
    /// decoded when the box is small enough), the cover agrees with libvips' own centred square
    /// thumbnail (lanczos3) within what two good filters differ by.
    @Test func aCoverAgreesWithLibvipsOnSeededPictures() throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: 1201)
        for index in 0..<16 {
            let (width, height) = (Int.random(in: 40...1600, using: &random), Int.random(in: 40...1600, using: &random))
            let box = Int.random(in: 16...700, using: &random)
            let (a, b, c) = (Double.random(in: 2...9, using: &random), Double.random(in: 2...9, using: &random), Double.random(in: 0...6, using: &random))
            let source = try folder.file("seeded-\(index).ppm", Self.ppm(width: width, height: height) { x, y in
                let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
                func channel(_ value: Double) -> UInt8 { UInt8(max(0, min(255, 128 + 120 * value))) }
                return (channel(sin(a * u + c)), channel(cos(b * v - c)), channel(sin(a * u + b * v)))
            })
            var file = source
            if index.isMultiple(of: 2) {
                let bytes = try Vips.encode(try Vips.thumbnail(of: source, width: width), as: .jpeg, quality: 95)
                file = try folder.file("seeded-\(index).jpg", bytes)
            }
            let ours = try Self.cover(file, box, box)
            let theirs = try TomoImages.Pixels(try Vips.thumbnail(of: file, width: box, square: true))
            let label = "case \(index): \(width)×\(height) \(file.pathExtension) → \(box)×\(box)"
            #expect((theirs.width, theirs.height) == (ours.width, ours.height), "\(label)")
            guard theirs.bytes.count == ours.bytes.count, theirs.bands == 3 else { continue }
            let differences = zip(ours.bytes, theirs.bytes).map { abs(Int($0) - Int($1)) }
            let mean = Double(differences.reduce(0, +)) / Double(differences.count)
            #expect(mean < 2.5, "\(label): mean difference \(mean)")
            #expect(differences.max() ?? 0 <= 40, "\(label): largest difference \(differences.max() ?? 0)")
        }
    }

    @Test func aPictureIsReadFromTheSmallestThumbnailThatFillsItsPlace() {
        let picture = ShareCard.Picture(files: [
            .init(path: "1280.jpg", width: 1280, height: 853),
            .init(path: "320.jpg", width: 320, height: 213),
            .init(path: "640.jpg", width: 640, height: 427),
        ], identity: "photo")
        #expect(picture.path(filling: 160, 160) == "320.jpg")
        #expect(picture.path(filling: 176, 176) == "320.jpg")
        #expect(picture.path(filling: 400, 400) == "640.jpg")
        #expect(picture.path(filling: 630, 630) == "1280.jpg")
        // None fills a 1200×630 box without being enlarged: the largest is enlarged least.
        #expect(picture.path(filling: 1200, 900) == "1280.jpg")
        #expect(ShareCard.Picture(files: [], identity: "none").path(filling: 10, 10) == nil)
    }
}
