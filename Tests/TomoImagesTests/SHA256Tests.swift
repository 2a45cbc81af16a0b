import Testing
@testable import TomoImages

/// Known answers (the empty string and "abc" from FIPS 180-4; the others from `sha256sum`).
@Suite struct SHA256Tests {
    @Test func knownAnswers() {
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 58 bytes: the length field no longer fits in the first block.
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmjklmnklmnomnopnopq".utf8))
            == "e5430ad4b0ccee90cbcbe54adb271136ac5b471d789a13a88e7bb977c342e3cd")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 100_000))
            == "6d1cf22d7cc09b085dfc25ee1a1f3ae0265804c607bc2074ad253bcc82fd81ee")
    }

    @Test func piecewiseUpdatesMatchOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 55, 56, 63, 64, 65, 500, 999] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalizeHex() == SHA256.hex(of: message), "split at \(split)")
        }
    }
}
