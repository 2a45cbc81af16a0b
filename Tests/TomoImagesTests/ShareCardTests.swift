import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// Share cards read back from their files: the size, the pictures where the layout puts them,
/// the text inside the margins (nothing at all drawn in them), colour emoji, and the cache.
@Suite struct ShareCardTests {
    static let width = ShareCardMaker.width, height = ShareCardMaker.height, margin = ShareCardMaker.margin
    static let background = [ShareCardMaker.background.red, ShareCardMaker.background.green, ShareCardMaker.background.blue]

    /// A card's decoded pixels.
    struct Pixels {
        var width: Int
        var height: Int
        var bands: Int
        var values: [UInt8]

        init(_ path: String) throws {
            (width, height, bands, values) = try Vips.pixels(of: URL(fileURLWithPath: path))
        }

        func at(_ x: Int, _ y: Int) -> [Int] {
            let start = (y * width + x) * bands
            return values[start..<start + 3].map(Int.init)
        }

        /// Every pixel of the rectangle that differs from `colour` by more than `tolerance`
        /// (JPEG moves flat colours a little) in some band.
        func differing(from colour: [Int], xs: Range<Int>, ys: Range<Int>, tolerance: Int = 14) -> [(Int, Int)] {
            var found: [(Int, Int)] = []
            for y in ys {
                for x in xs where zip(at(x, y), colour).contains(where: { abs($0 - $1) > tolerance }) { found.append((x, y)) }
            }
            return found
        }

        func count(xs: Range<Int>, ys: Range<Int>, where test: ([Int]) -> Bool) -> Int {
            var count = 0
            for y in ys {
                for x in xs where test(at(x, y)) { count += 1 }
            }
            return count
        }
    }

    /// A flat image of one colour, as a PNG file in `folder`.
    static func picture(_ name: String, red: Int, green: Int, blue: Int, width: Int = 1280, height: Int = 720, in folder: TemporaryFolder) throws -> ShareCard.Picture {
        let flat = try folder.file(name + ".ppm", CardCoverTests.ppm(width: width, height: height) { _, _ in (UInt8(red), UInt8(green), UInt8(blue)) })
        let file = try folder.file(name, try Vips.encodePNG(try Vips.thumbnail(of: flat, width: width)))
        return ShareCard.Picture(path: file.path, identity: name)
    }

    static func profile(name: String, bio: String, header: ShareCard.Picture? = nil, icon: ShareCard.Picture? = nil) -> ShareCard {
        ShareCard(layout: .profile, picture: header, icon: icon, title: name, name: "", handle: "someone_with_a_long_handle", text: bio, language: "ja")
    }

    static let longName = "Leopold Maximilian Alexander Parkinson-Wolfeschlegelsteinhausenberger the Third of Many Names and Titles"
    static let longJapaneseBio = String(repeating: "東京と大阪を行き来しながら写真を撮っています🚃📷✨ 週末は京都を歩きます🍁🌸👩‍👩‍👧 ", count: 6)
    static let unbrokenName = String(repeating: "W", count: 200)

    @Test(arguments: [
        (longName, longJapaneseBio),
        (unbrokenName, String(repeating: "x", count: 400)),
        ("山田 花子", ""),
        ("A", "One short line."),
    ])
    func profileCardKeepsEveryPixelOfItsMarginsPlain(name: String, bio: String) throws {
        let folder = try TemporaryFolder()
        let maker = try ShareCardMaker(cacheFolder: folder.cache)
        let icon = try Self.picture("icon.png", red: 240, green: 240, blue: 20, width: 300, height: 300, in: folder)
        let pixels = try Pixels(try maker.make(Self.profile(name: name, bio: bio, icon: icon)))
        #expect((pixels.width, pixels.height) == (Self.width, Self.height))
        let (w, h, m) = (Self.width, Self.height, Self.margin)
        for (xs, ys) in [(0..<m, 0..<h), (w - m..<w, 0..<h), (0..<w, 0..<m), (0..<w, h - m..<h)] {
            let drawn = pixels.differing(from: Self.background, xs: xs, ys: ys)
            #expect(drawn.isEmpty, "\(drawn.count) pixels drawn in the margin \(xs) × \(ys), e.g. \(drawn.prefix(3))")
        }
        // The name is drawn (white) in the text column, the icon (yellow) left of it.
        #expect(pixels.count(xs: 284..<w - m, ys: m..<h - m) { $0.allSatisfy { $0 > 230 } } > 500)
        #expect(pixels.differing(from: [240, 240, 20], xs: 100..<200, ys: 300..<330).isEmpty)
    }

    /// Han characters are drawn the way the card's language writes them: 骨 and 直 have other
    /// strokes in Chinese than in Japanese, and Korean and traditional Chinese have faces of
    /// their own; a tag that names no other variant keeps the Japanese one.
    @Test func hanCharactersAreDrawnTheWayTheCardsLanguageWritesThem() throws {
        _ = try ImageProcessor.libvipsVersion()
        #expect(["ja", "ja-JP", "en", "fr-CA", "x-mine"].map(Lettering.variant) == ["JP", "JP", "JP", "JP", "JP"])
        #expect(["ko", "ko-KR", "zh", "zh-Hans", "zh-CN", "zh-Hans-HK", "zh-Hant", "zh-TW", "zh-HK", "zh-MO", "yue"].map(Lettering.variant)
            == ["KR", "KR", "SC", "SC", "SC", "SC", "TC", "TC", "HK", "HK", "TC"])
        func drawn(_ language: String) throws -> [UInt8] {
            let block = TextBlock(.bold, sizes: [68], lines: 1, in: Lettering(language: language))
            return try #require(try block.draw("骨直角", width: 800)).bytes
        }
        let japanese = try drawn("ja")
        #expect(try drawn("en-US") == japanese)
        #expect(try drawn("zh-Hans") != japanese)
        #expect(try drawn("zh-Hant") != japanese)
        #expect(try drawn("zh-Hans") != (try drawn("zh-Hant")))
        // The language is part of what names a card, so a new language draws it again.
        let card = Self.profile(name: "骨直角", bio: "")
        var chinese = card
        chinese.language = "zh-Hans"
        #expect(try ShareCardMaker.key(of: card) != (try ShareCardMaker.key(of: chinese)))
    }

    /// A name or bio of invisible characters only (a stray closing isolate, a zero-width
    /// space) draws a card without that text, not a failed build; an override left open does
    /// not turn the rest of the card's line.
    @Test(arguments: ["\u{2069}", "\u{200B}", "\u{2069}Bob\u{202E}", "\u{202E}"])
    func invisibleTextDrawsNothing(name: String) throws {
        let folder = try TemporaryFolder()
        let maker = try ShareCardMaker(cacheFolder: folder.cache)
        let pixels = try Pixels(try maker.make(Self.profile(name: name, bio: "\u{200B}")))
        #expect((pixels.width, pixels.height) == (Self.width, Self.height))
        #expect(TextBlock.oneLine("Bob\u{202E}evil\u{2069} x") == "Bobevil x")
    }

    @Test func emojiAreDrawnInColour() throws {
        let folder = try TemporaryFolder()
        let maker = try ShareCardMaker(cacheFolder: folder.cache)
        let plain = try Pixels(try maker.make(Self.profile(name: "Hana", bio: "Watercolours and cats")))
        let emoji = try Pixels(try maker.make(Self.profile(name: "Hana", bio: "🍎🍎🍎🍎 水彩と猫 🍎🍎🍎🍎")))
        // Red apples: strongly red pixels, which white text on slate never has.
        let red = { (pixel: [Int]) in pixel[0] > 180 && pixel[1] < 90 && pixel[2] < 90 }
        let area = (xs: Self.margin..<Self.width - Self.margin, ys: Self.margin..<Self.height - Self.margin)
        #expect(plain.count(xs: area.xs, ys: area.ys, where: red) == 0)
        #expect(emoji.count(xs: area.xs, ys: area.ys, where: red) > 200)
    }

    @Test func profileCardShowsTheHeaderAboveItsText() throws {
        let folder = try TemporaryFolder()
        let maker = try ShareCardMaker(cacheFolder: folder.cache)
        let header = try Self.picture("header.png", red: 20, green: 120, blue: 230, in: folder)
        let pixels = try Pixels(try maker.make(Self.profile(name: Self.longName, bio: Self.longJapaneseBio, header: header)))
        #expect((pixels.width, pixels.height) == (Self.width, Self.height))
        // The top of the card is the header, barely darkened; across the whole width.
        for x in [10, 600, 1190] {
            let top = pixels.at(x, 20)
            #expect(top[2] > 190 && top[0] < 40, "at \(x): \(top)")
        }
        // The margins show the header under the veil, which changes only from row to row: each
        // row of a margin is one colour, its colour at the card's edge (text would break it; JPEG
        // blocks that straddle the margin's edge blur white text on a dark veil a little).
        let (w, h, m) = (Self.width, Self.height, Self.margin)
        for (xs, ys) in [(0..<m, 0..<h), (w - m..<w, 0..<h), (0..<w, 0..<m), (0..<w, h - m..<h)] {
            let drawn = ys.flatMap { y in pixels.differing(from: pixels.at(w - 1, y), xs: xs, ys: y..<y + 1, tolerance: 20) }
            #expect(drawn.isEmpty, "\(drawn.count) pixels drawn in the margin \(xs) × \(ys), e.g. \(drawn.prefix(3))")
        }
    }

    @Test func postCardShowsThePhotoOnTheLeftAndTheCaptionInsideTheMargins() throws {
        let folder = try TemporaryFolder()
        let maker = try ShareCardMaker(cacheFolder: folder.cache)
        let photo = try Self.picture("photo.png", red: 230, green: 60, blue: 20, in: folder)
        let caption = String(repeating: "夕暮れの東京湾🌇 Golden hour over Tokyo Bay, shot on Portra 400. ", count: 8)
        let card = ShareCard(layout: .post, picture: photo, icon: nil, title: caption, name: Self.longName, handle: "alice", text: "", language: "en")
        let pixels = try Pixels(try maker.make(card))
        #expect((pixels.width, pixels.height) == (Self.width, Self.height))
        // At quality 85 colour is stored at half resolution, and decoders blend it across one
        // pixel on each side of a sharp colour edge: the columns next to the photo's edge are
        // left out.
        #expect(pixels.differing(from: [230, 60, 20], xs: 0..<Self.height - 1, ys: 0..<Self.height, tolerance: 20).isEmpty)
        let (w, h, m) = (Self.width, Self.height, Self.margin)
        let side = Self.height + 1..<w
        for (xs, ys) in [(side, 0..<m), (side, h - m..<h), (w - m..<w, 0..<h), (Self.height + 1..<Self.height + 50, 0..<h)] {
            let drawn = pixels.differing(from: Self.background, xs: xs, ys: ys)
            #expect(drawn.isEmpty, "\(drawn.count) pixels drawn in the margin \(xs) × \(ys), e.g. \(drawn.prefix(3))")
        }
        #expect(pixels.count(xs: 690..<w - m, ys: m..<300) { $0.allSatisfy { $0 > 230 } } > 1000)
    }

    /// Something other than a file planted where a cached card lies (a named pipe, which a
    /// build would hard-link into the output and a reader would hang on) is drawn over.
    @Test func aNamedPipeInPlaceOfACachedCardIsDrawnOver() throws {
        let folder = try TemporaryFolder()
        let card = Self.profile(name: "Alice", bio: "Photographer")
        let path = try ShareCardMaker(cacheFolder: folder.cache).make(card)
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        let again = try ShareCardMaker(cacheFolder: folder.cache)
        #expect(try again.make(card) == path)
        #expect(again.drawCount == 1)
        var status = stat()
        #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        #expect(try Pixels(path).width == Self.width)
    }

    @Test func aCardIsDrawnOnceAndAgainOnlyWhenWhatItShowsChanges() throws {
        let folder = try TemporaryFolder()
        let card = Self.profile(name: "Alice", bio: "Photographer")
        let first = try ShareCardMaker(cacheFolder: folder.cache)
        let path = try first.make(card)
        let again = try ShareCardMaker(cacheFolder: folder.cache)
        #expect(try again.make(card) == path)
        #expect(again.drawCount == 0)
        var renamed = card
        renamed.title = "Alice B."
        var otherIcon = card
        otherIcon.icon = ShareCard.Picture(path: path, identity: "media/alice/icon-12345678-256.jpg")
        let paths = try [renamed, otherIcon].map(again.make)
        #expect(Set(paths + [path]).count == 3)
        #expect(again.drawCount == 2)
    }
}
