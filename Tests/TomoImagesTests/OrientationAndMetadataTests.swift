import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// landscape.jpg is 480×320 as stored, with EXIF Orientation 6 ("rotate 90° clockwise"), GPS
/// coordinates, camera, artist, XMP creator and IPTC keywords.
@Suite struct OrientationAndMetadataTests {
    @Test func sourceFixtureReallyCarriesMetadata() throws {
        // Guards the other tests: they prove nothing if the fixture lost its tags.
        let found = MetadataScanner.metadata(in: try bytes(of: fixture("landscape.jpg")))
        #expect(found.contains { $0.hasPrefix("APP1 Exif") })
        #expect(found.contains { $0.hasPrefix("APP13") })
    }

    @Test func orientationSixComesOutPortrait() throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [160, 320, 1280])
        let image = try processor.variants(for: fixture("landscape.jpg"), displayPath: "content/posts/alice/landscape.jpg")
        #expect(image.width == 320)
        #expect(image.height == 480)
        #expect(image.variants.count == 4)
        for variant in image.variants {
            #expect(variant.height > variant.width, "\(variant.fileName) is \(variant.width)×\(variant.height)")
            let header = try Vips.header(of: variant.file)
            #expect(header.width == variant.width)
            #expect(header.height == variant.height)
        }
        #expect(image.variants(in: .webp).map(\.width) == [160, 320])
        #expect(image.variants(in: .webp).map(\.height) == [240, 480])
    }

    @Test(arguments: ImageFormat.allCases)
    func outputsCarryNoMetadataBlocks(format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [160, 320])
        let image = try processor.variants(for: fixture("landscape.jpg"), displayPath: "landscape.jpg")
        let variants = image.variants(in: format)
        #expect(variants.count == 2)
        for variant in variants {
            let output = try bytes(of: variant.file)
            #expect(MetadataScanner.metadata(in: output) == [], "\(variant.fileName)")
            let secrets = ["Exif", "GPS", "Alice Example", "Canon", "secret", "ns.adobe.com"]
            let leaked = secrets.filter { output.contains(Array($0.utf8)) }
            #expect(leaked == [], "\(variant.fileName)")
        }
    }

    @Test(.enabled(if: ExifTool.isInstalled, "exiftool is not installed: run make deps"), arguments: ImageFormat.allCases)
    func exiftoolFindsNoMetadata(format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [320])
        let image = try processor.variants(for: fixture("landscape.jpg"), displayPath: "landscape.jpg")
        #expect(try ExifTool.metadataTags(in: fixture("landscape.jpg")).contains("GPS:GPSLatitude"))
        for variant in image.variants(in: format) {
            #expect(try ExifTool.metadataTags(in: variant.file) == [], "\(variant.fileName)")
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
