import Foundation
import Testing
import TomoContent
@testable import TomoCLI
import TomoTestSupport

/// TIFF is one of the formats the README lists: `.tif` and `.tiff` photos and icons work in
/// every path that takes an image, as a JPEG does.
@Suite struct TIFFTests {
    /// An uncompressed 8-bit RGB baseline TIFF of `width` × `height` pixels, in a gradient.
    static func tiff(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("II".utf8) + [42, 0]
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func long(_ value: Int) -> [UInt8] { short(value & 0xFFFF) + short(value >> 16) }
        let entryCount = 10
        let bitsOffset = 8 + 2 + entryCount * 12 + 4
        let pixelsOffset = bitsOffset + 6
        let pixelBytes = width * height * 3
        bytes += long(8)
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            short(tag) + short(type) + long(count) + (type == 3 && count == 1 ? short(value) + [0, 0] : long(value))
        }
        bytes += short(entryCount)
        bytes += entry(256, 3, 1, width) + entry(257, 3, 1, height) + entry(258, 3, 3, bitsOffset)
        bytes += entry(259, 3, 1, 1) + entry(262, 3, 1, 2) + entry(273, 4, 1, pixelsOffset)
        bytes += entry(277, 3, 1, 3) + entry(278, 3, 1, height) + entry(279, 4, 1, pixelBytes) + entry(284, 3, 1, 1)
        bytes += long(0)
        bytes += short(8) + short(8) + short(8)
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 128] }
        }
        return bytes
    }

    @Test(arguments: ["tif", "tiff", "TIF"]) func aTIFFPhotoAndIconGoThroughEveryPath(fileExtension: String) throws {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.path]).status == 0)
        let site = ["--site", folder.path]
        let image = Self.tiff(width: 64, height: 48)
        // `tomo post add` takes it.
        try folder.write("camera/photo.\(fileExtension)", bytes: image)
        let added = runTomo(["post", "add", "example", folder.url.appendingPathComponent("camera/photo.\(fileExtension)").path, "--slug", "added"] + site)
        #expect(added.status == 0, "\(added.error)")
        // A post written by hand names one, and an icon is one.
        try folder.write("content/posts/example/scan.\(fileExtension)", bytes: image)
        try folder.write("content/posts/example/scan.md", "---\nphoto: scan.\(fileExtension)\ndate: 2026-05-01T18:30:00+09:00\n---\nA scan.\n")
        try folder.write("content/users/example/icon.\(fileExtension)", bytes: image)
        let profile = try String(contentsOf: folder.url.appendingPathComponent("content/users/example.yaml"), encoding: .utf8)
        try folder.write("content/users/example.yaml", profile + "icon: example/icon.\(fileExtension)\n")
        let check = runTomo(["check"] + site)
        #expect(check.status == 0, "\(check.output)\(check.error)")
        #expect(!check.error.contains("ignored"), "\(check.error)")
        #expect(!check.error.contains("no icon"), "\(check.error)")
        let build = runTomo(["build"] + site)
        #expect(build.status == 0, "\(build.error)")
        let media = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("public/media/example").path)
        for name in ["icon", "scan", "added"] {
            #expect(media.contains { $0.hasPrefix(name + "-") && $0.hasSuffix(".webp") }, "\(name) in \(media)")
        }
        // `tomo serve`'s watcher sees a changed photo or icon as one (a rebuild of its pages).
        #expect(ContentPath(classifying: "content/posts/example/scan.\(fileExtension)") == .postPhoto(handle: "example"))
        #expect(ContentPath(classifying: "content/users/example/icon.\(fileExtension)") == .profileImage)
    }
}
