import Testing
@testable import TomoImages

@Suite struct WebPContainerTests {
    private func chunk(_ name: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(body.count)
        var bytes = Array(name.utf8) + [UInt8(size & 0xff), UInt8(size >> 8 & 0xff), UInt8(size >> 16 & 0xff), UInt8(size >> 24)] + body
        if body.count & 1 == 1 { bytes.append(0) }
        return bytes
    }

    private func riff(_ chunks: [UInt8]) -> [UInt8] {
        let size = UInt32(chunks.count + 4)
        return Array("RIFF".utf8) + [UInt8(size & 0xff), UInt8(size >> 8 & 0xff), UInt8(size >> 16 & 0xff), UInt8(size >> 24)]
            + Array("WEBP".utf8) + chunks
    }

    @Test func dropsMetadataChunksAndFlagsButKeepsAlpha() throws {
        let vp8x = [0x10 | 0x08 | 0x04 | 0x20, 0, 0, 0, 9, 0, 0, 9, 0, 0] as [UInt8]
        let input = riff(chunk("VP8X", vp8x) + chunk("ICCP", [1, 2, 3]) + chunk("ALPH", [7]) + chunk("VP8 ", [1, 2, 3, 4])
            + chunk("EXIF", Array("Exif\0\0GPS".utf8)) + chunk("XMP ", [1]))
        let output = try #require(WebPContainer.removingMetadata(input))
        let expectedHeader = [0x10] + vp8x.dropFirst()
        #expect(output == riff(chunk("VP8X", Array(expectedHeader)) + chunk("ALPH", [7]) + chunk("VP8 ", [1, 2, 3, 4])))
        #expect(MetadataScanner.metadata(in: output) == [])
    }

    @Test func aFeaturelessExtendedFileBecomesSimple() throws {
        let input = riff(chunk("VP8X", [0x08, 0, 0, 0, 9, 0, 0, 9, 0, 0]) + chunk("VP8 ", [5, 6]) + chunk("EXIF", [1, 2, 3]))
        #expect(WebPContainer.removingMetadata(input) == riff(chunk("VP8 ", [5, 6])))
    }

    @Test func malformedInputIsRefused() {
        #expect(WebPContainer.removingMetadata(Array("RIFF\0\0\0\0WEBP".utf8) + [0x56, 0x50]) == nil)
        #expect(WebPContainer.removingMetadata(riff(chunk("VP8 ", [1, 2])).dropLast()) == nil)
        #expect(WebPContainer.removingMetadata(Array("not a webp file".utf8)) == nil)
    }
}
