import Foundation
import CVipsShim

/// Swift's view of the C shim: values and thrown errors instead of status codes and out-pointers.
enum Vips {
    /// libvips started once per process, on first use; its version, or why it could not start.
    static let version: Result<String, VipsFailure> = {
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_vips_start(&error) == 0 else { return .failure(failure(error)) }
        return .success(String(cString: tomo_vips_version()))
    }()

    static func header(of file: URL) throws(VipsFailure) -> ImageHeader {
        var header = TomoVipsHeader()
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_vips_read_header(file.path, &header, &error) == 0 else { throw failure(error) }
        let format = withUnsafeBytes(of: header.format) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ImageHeader(
            width: Int(header.width), height: Int(header.height), hasAlpha: header.has_alpha != 0, format: format
        )
    }

    /// `square`: a `width` square cropped from the middle (an icon), see the shim.
    static func thumbnail(of file: URL, width: Int, square: Bool = false) throws(VipsFailure) -> Thumbnail {
        var error: UnsafeMutablePointer<CChar>?
        guard let image = tomo_vips_thumbnail(file.path, Int32(width), square ? 1 : 0, &error) else { throw failure(error) }
        return Thumbnail(image)
    }

    static func encodePNG(_ thumbnail: Thumbnail) throws(VipsFailure) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_vips_save_png(thumbnail.image, &buffer, &length, &error) == 0, let buffer else { throw failure(error) }
        defer { tomo_vips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    static func encode(_ thumbnail: Thumbnail, as format: ImageFormat, quality: Int) throws(VipsFailure) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        let status = switch format {
        case .webp: tomo_vips_save_webp(thumbnail.image, Int32(quality), &buffer, &length, &error)
        case .jpeg: tomo_vips_save_jpeg(thumbnail.image, Int32(quality), &buffer, &length, &error)
        }
        guard status == 0, let buffer else { throw failure(error) }
        defer { tomo_vips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// The pixel at (x, y) of an image file as stored, one value per band (tests look at outputs with it).
    static func pixel(of file: URL, x: Int, y: Int) throws(VipsFailure) -> [Double] {
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var error: UnsafeMutablePointer<CChar>?
        let bands = withUnsafeMutableBytes(of: &values) { raw in
            tomo_vips_read_pixel(file.path, Int32(x), Int32(y), raw.baseAddress?.assumingMemoryBound(to: Double.self), &error)
        }
        guard bands > 0 else { throw failure(error) }
        let all = [values.0, values.1, values.2, values.3]
        return Array(all.prefix(Int(bands)))
    }

    // MARK: Share cards (see ShareCardMaker and CardCanvas)

    /// Pango `markup` in `font` wrapped at `width` pixels; as big as its ink.
    static func text(_ markup: String, font: String, width: Int) throws(VipsFailure) -> Thumbnail {
        try made { error in tomo_vips_text(markup, font, Int32(width), &error) }
    }

    /// Every pixel of an image file, row by row, `bands` values each (tests look at outputs with it).
    static func pixels(of file: URL) throws(VipsFailure) -> (width: Int, height: Int, bands: Int, values: [UInt8]) {
        var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var error: UnsafeMutablePointer<CChar>?
        guard tomo_vips_read_pixels(file.path, &width, &height, &bands, &pixels, &error) == 0, let pixels else { throw failure(error) }
        defer { tomo_vips_free(pixels) }
        let count = Int(width) * Int(height) * Int(bands)
        return (Int(width), Int(height), Int(bands), Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// The image a shim call made, or its failure.
    private static func made(_ call: (inout UnsafeMutablePointer<CChar>?) -> OpaquePointer?) throws(VipsFailure) -> Thumbnail {
        var error: UnsafeMutablePointer<CChar>?
        guard let image = call(&error) else { throw failure(error) }
        return Thumbnail(image)
    }

    /// Lets libvips free what it keeps per thread; for worker threads between images.
    static func releaseThreadMemory() {
        tomo_vips_release_thread_memory()
    }

    /// Turns the shim's error text (which this releases) into a failure.
    static func failure(_ text: UnsafeMutablePointer<CChar>?) -> VipsFailure {
        guard let text else { return VipsFailure(reason: "") }
        defer { tomo_vips_free(text) }
        // libvips ends each message with a newline and may stack several; one line reads better.
        let lines = String(cString: text).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return VipsFailure(reason: lines.filter { !$0.isEmpty }.joined(separator: "; "))
    }
}
