import CVipsShim

/// A share card being painted (the shim's `TomoCard`): 8-bit sRGB pixels in memory that layers
/// are laid on in place, each touching only the pixels it covers; freed with its owner.
final class CardCanvas {
    private let card: OpaquePointer

    init(width: Int, height: Int, colour: Pixels.Colour) throws(VipsFailure) {
        _ = try Vips.version.get()
        guard let card = tomo_card_new(Int32(width), Int32(height), Int32(colour.red), Int32(colour.green), Int32(colour.blue)) else {
            throw VipsFailure(reason: "out of memory for a \(width)×\(height) card")
        }
        self.card = card
    }

    deinit {
        tomo_card_free(card)
    }

    /// Darkens everything under a black veil, `top` opaque at the first row to `bottom` at
    /// the last (0-255).
    func veil(top: Int, bottom: Int) {
        tomo_card_veil(card, Int32(top), Int32(bottom))
    }

    /// A disc of `colour`, `size` across, with its square's corner at (x, y).
    func disc(x: Int, y: Int, size: Int, colour: Pixels.Colour) {
        tomo_card_disc(card, Int32(x), Int32(y), Int32(size), Int32(colour.red), Int32(colour.green), Int32(colour.blue))
    }

    /// The image file at `path` scaled and cropped from the middle to fill the box at (x, y),
    /// painted straight onto the card (the box must lie inside it).
    func cover(with path: String, x: Int, y: Int, width: Int, height: Int) throws(VipsFailure) {
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_card_cover_onto(card, path, Int32(x), Int32(y), Int32(width), Int32(height), &error) == 0 else { throw Vips.failure(error) }
    }

    /// `pixels` laid on through their alpha with the corner at (x, y); with `circle`, only the
    /// disc inscribed in them.
    func paint(_ pixels: Pixels, x: Int, y: Int, circle: Bool = false) {
        pixels.bytes.withUnsafeBufferPointer { bytes in
            tomo_card_paint(card, bytes.baseAddress, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands), Int32(x), Int32(y), circle ? 1 : 0)
        }
    }

    func jpeg(quality: Int) throws(VipsFailure) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_card_save_jpeg(card, Int32(quality), &buffer, &length, &error) == 0, let buffer else { throw Vips.failure(error) }
        defer { tomo_vips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}

/// An image's 8-bit sRGB pixels as plain bytes (3 a pixel, or 4 with alpha), row by row: what a
/// card is painted with, and safe to keep and share between threads, unlike a libvips image.
struct Pixels: Sendable {
    struct Colour: Sendable, Hashable {
        var red: Int
        var green: Int
        var blue: Int
    }

    var width: Int
    var height: Int
    var bands: Int
    var bytes: [UInt8]

    /// The pixels of `image`, read out of libvips.
    init(_ image: Thumbnail) throws(VipsFailure) {
        var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_vips_image_pixels(image.image, &width, &height, &bands, &pixels, &error) == 0, let pixels else { throw Vips.failure(error) }
        self.init(taking: pixels, width: Int(width), height: Int(height), bands: Int(bands))
    }

    /// The image file at `path` scaled and cropped from the middle to fill `width` × `height`,
    /// upright and opaque.
    init(covering width: Int, _ height: Int, with path: String) throws(VipsFailure) {
        _ = try Vips.version.get()
        var pixels: UnsafeMutablePointer<UInt8>?
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_card_cover(path, Int32(width), Int32(height), &pixels, &error) == 0, let pixels else { throw Vips.failure(error) }
        self.init(taking: pixels, width: width, height: height, bands: 3)
    }

    /// Copies a buffer the shim made, and releases it.
    private init(taking pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bands: Int) {
        defer { tomo_vips_free(pixels) }
        self.width = width
        self.height = height
        self.bands = bands
        bytes = Array(UnsafeBufferPointer(start: pixels, count: width * height * bands))
    }
}
