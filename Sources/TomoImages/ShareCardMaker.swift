import Foundation
import Synchronization
import TomoCore

/// Draws share cards (`ShareCard`) with libvips: pictures scaled and cropped to their boxes,
/// text through Pango (`vips_text`) in Noto Sans CJK with Noto Color Emoji, each block of text
/// measured after it is drawn and drawn again smaller, then shorter, until it fits its box, so
/// nothing ever crosses the card's margins. Cards are JPEG files kept in the cache folder by the
/// hash of what they show (`ShareCard.key`): a card already there is never drawn again.
public final class ShareCardMaker: Sendable {
    public static let width = 1200
    public static let height = 630
    /// The empty border around everything drawn (pictures that fill the card aside).
    public static let margin = 64

    /// Bump when a change here alters what a card looks like, so every card is drawn again.
    static let drawingVersion = 2
    /// 85 lets libjpeg halve the colour resolution (4:2:0), as link previews everywhere are:
    /// the file is about half the size of 90's and encodes in two thirds of the time.
    static let quality = 85
    /// The plain background (a profile without header, the post card's text side).
    static let background = Pixels.Colour(red: 31, green: 41, blue: 55)

    private let cache: ImageCache
    private let draws = Mutex(0)
    private let layers = LayerCache()

    /// `cacheFolder`: where cards are kept between builds (`<site>/.tomo-cache/cards`).
    public init(cacheFolder: URL) throws(Diagnostic) {
        _ = try ImageProcessor.libvipsVersion()
        cache = try ImageCache(folder: cacheFolder)
    }

    /// How many cards this maker drew (a rebuild with nothing changed draws none).
    public var drawCount: Int { draws.withLock { $0 } }

    /// The hash of what `card` shows, which names its file. Needs libvips started, since its
    /// version is part of the hash; writes nothing.
    public static func key(of card: ShareCard) throws(Diagnostic) -> String {
        card.key(drawing: drawingVersion, libvips: try ImageProcessor.libvipsVersion())
    }

    /// The cached file of each card, drawn first when it is not in the cache, on every core;
    /// results in the order of `cards`. Cards are drawn in order of their owner, so what the
    /// cards of one profile share is drawn once (`LayerCache`).
    public func make(_ cards: [ShareCard]) -> [Result<String, Diagnostic>] {
        let results = Mutex([Result<String, Diagnostic>?](repeating: nil, count: cards.count))
        let byOwner = cards.indices.sorted { (cards[$0].handle, $0) < (cards[$1].handle, $1) }
        DispatchQueue.concurrentPerform(iterations: byOwner.count) { turn in
            let index = byOwner[turn]
            let result = Result { () throws(Diagnostic) in try make(cards[index]) }
            Vips.releaseThreadMemory()
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }.map { $0 ?? .failure(Diagnostic("internal error: a share card was not made")) }
    }

    /// The cached file of `card`, drawn first when it is not in the cache.
    public func make(_ card: ShareCard) throws(Diagnostic) -> String {
        let name = "card-\(try Self.key(of: card)).jpg"
        let path = cache.path(named: name)
        if cache.stamp(named: name) != nil { return path }
        let bytes: [UInt8]
        do {
            bytes = try draw(card).jpeg(quality: Self.quality)
        } catch {
            let what = card.layout == .profile ? "@\(card.handle)'s profile" : "a post of @\(card.handle)"
            throw Diagnostic("cannot draw the share card of \(what): \(error.reason.isEmpty ? "libvips gave no reason" : error.reason) (are the fonts fonts-noto-cjk and fonts-noto-color-emoji installed? `make deps` installs them)")
        }
        draws.withLock { $0 += 1 }
        try cache.store(bytes, named: name)
        return path
    }

    // MARK: - Drawing

    private func draw(_ card: ShareCard) throws(VipsFailure) -> CardCanvas {
        switch card.layout {
        case .profile: try drawProfile(card)
        case .post: try drawPost(card)
        }
    }

    /// The header fills the card under a veil that darkens towards the bottom, where the icon
    /// and the text sit; without a header, icon and text sit in the middle of a plain card.
    private func drawProfile(_ card: ShareCard) throws(VipsFailure) -> CardCanvas {
        let (width, height, margin) = (Self.width, Self.height, Self.margin)
        let canvas = try CardCanvas(width: width, height: height, colour: Self.background)
        if let header = card.picture?.path(filling: width, height) {
            try canvas.cover(with: header, x: 0, y: 0, width: width, height: height)
            canvas.veil(top: 20, bottom: 220)
        }
        let iconSize = 176, ring = 8
        let textX = margin + iconSize + 44
        let textWidth = width - margin - textX
        let lettering = Lettering(language: card.language)
        var blocks: [Pixels] = []
        if let name = try text(TextBlock(.bold, sizes: [68, 60, 52, 44], lines: 2, in: lettering), card.title, width: textWidth) { blocks.append(name) }
        if let handle = try text(TextBlock(.regular, sizes: [34], lines: 1, colour: "#cbd5e1", in: lettering), "@" + card.handle, width: textWidth) { blocks.append(handle) }
        if let bio = try text(TextBlock(.regular, sizes: [34, 30], lines: 2, in: lettering), card.text, width: textWidth) { blocks.append(bio) }
        let gap = 12
        let textHeight = blocks.reduce(0) { $0 + $1.height } + gap * max(blocks.count - 1, 0)
        let contentHeight = max(textHeight, iconSize)
        let top = card.picture == nil ? (height - contentHeight) / 2 : height - margin - contentHeight
        try paintIcon(card.icon, of: card.title, in: lettering, on: canvas, size: iconSize, ring: ring, x: margin, y: top + (contentHeight - iconSize) / 2)
        var y = top + (contentHeight - textHeight) / 2
        for block in blocks {
            canvas.paint(block, x: textX, y: y)
            y += block.height + gap
        }
        return canvas
    }

    /// The photo as a square filling the left; the caption at the top of the right side, the
    /// owner's icon, name and `@handle` at its bottom.
    private func drawPost(_ card: ShareCard) throws(VipsFailure) -> CardCanvas {
        let (width, height, margin) = (Self.width, Self.height, Self.margin)
        let canvas = try CardCanvas(width: width, height: height, colour: Self.background)
        if let photo = card.picture?.path(filling: height, height) {
            try canvas.cover(with: photo, x: 0, y: 0, width: height, height: height)
        }
        let textX = height + 56
        let textWidth = width - margin - textX
        // The owner, along the bottom margin: the same for every post of one profile, so its
        // pieces come from the layer cache after the first.
        let iconSize = 88
        let ownerX = textX + iconSize + 20
        let ownerWidth = width - margin - ownerX
        let lettering = Lettering(language: card.language)
        var owner: [Pixels] = []
        if let name = try text(TextBlock(.bold, sizes: [36], lines: 1, in: lettering), card.name, width: ownerWidth) { owner.append(name) }
        if let handle = try text(TextBlock(.regular, sizes: [30], lines: 1, colour: "#cbd5e1", in: lettering), "@" + card.handle, width: ownerWidth) { owner.append(handle) }
        let ownerTextHeight = owner.reduce(0) { $0 + $1.height } + 4 * max(owner.count - 1, 0)
        let ownerHeight = max(ownerTextHeight, iconSize)
        let ownerTop = height - margin - ownerHeight
        try paintIcon(card.icon, of: card.name, in: lettering, on: canvas, size: iconSize, ring: 0, x: textX, y: ownerTop + (ownerHeight - iconSize) / 2)
        var y = ownerTop + (ownerHeight - ownerTextHeight) / 2
        for line in owner {
            canvas.paint(line, x: ownerX, y: y)
            y += line.height + 4
        }
        // The caption fills what is left above, as large as it fits.
        let captionHeight = ownerTop - 40 - margin
        let caption = TextBlock(.bold, sizes: [52, 44, 38, 32], lines: nil, colour: "#ffffff", height: captionHeight, in: lettering)
        if let text = try caption.draw(card.title, width: textWidth) { canvas.paint(text, x: textX, y: margin) }
        return canvas
    }

    /// The icon cut to a circle, on a white ring `ring` pixels wide when `ring` is not 0; without
    /// an icon, the initial of `name` on a grey disc (as the pages show it).
    private func paintIcon(_ icon: ShareCard.Picture?, of name: String, in lettering: Lettering, on canvas: CardCanvas, size: Int, ring: Int, x: Int, y: Int) throws(VipsFailure) {
        let inner = size - 2 * ring
        if ring > 0 { canvas.disc(x: x, y: y, size: size, colour: Pixels.Colour(red: 255, green: 255, blue: 255)) }
        if let icon, let picture = try layers.value(for: .icon(icon, size: inner), make: { () throws(VipsFailure) in
            try icon.path(filling: inner, inner).map { path throws(VipsFailure) in try Pixels(covering: inner, inner, with: path) }
        }) {
            canvas.paint(picture, x: x + ring, y: y + ring, circle: true)
            return
        }
        canvas.disc(x: x + ring, y: y + ring, size: inner, colour: Pixels.Colour(red: 100, green: 116, blue: 139))
        let initial = TextBlock.oneLine(name).first.map { String($0).uppercased() } ?? "?"
        if let letter = try text(TextBlock(.bold, sizes: [inner / 2], lines: 1, in: lettering), initial, width: inner) {
            canvas.paint(letter, x: x + ring + (inner - letter.width) / 2, y: y + ring + (inner - letter.height) / 2)
        }
    }

    /// A block of text that may show on many cards (a name, a handle), from the layer cache.
    private func text(_ block: TextBlock, _ text: String, width: Int) throws(VipsFailure) -> Pixels? {
        try layers.value(for: .text(block, text, width: width)) { () throws(VipsFailure) in try block.draw(text, width: width) }
    }
}

/// Layers that recur from card to card (the owner's icon, name and handle on each of their
/// posts), kept while a maker draws so each is made once. Bounded: when full it starts afresh,
/// which costs only speed, since cards are drawn in order of their owner.
final class LayerCache: Sendable {
    enum Key: Hashable, Sendable {
        case icon(ShareCard.Picture, size: Int)
        case text(TextBlock, String, width: Int)
    }

    static let capacity = 256
    private let layers = Mutex<[Key: Pixels?]>([:])

    func value(for key: Key, make: () throws(VipsFailure) -> Pixels?) throws(VipsFailure) -> Pixels? {
        if let known = layers.withLock({ $0[key] }) { return known }
        let made = try make()
        layers.withLock { layers in
            if layers.count >= Self.capacity { layers.removeAll(keepingCapacity: true) }
            layers[key] = made
        }
        return made
    }
}

/// One block of text on a card: its font, the sizes it may take (largest first) and the room it
/// has (a number of lines, or a height in pixels). `draw` measures what Pango drew and tries the
/// next size, then shortens the text (with "…") at the smallest, until it fits.
struct TextBlock: Hashable, Sendable {
    enum Weight: String {
        case regular = ""
        case bold = "Bold"
    }

    var weight: Weight
    var sizes: [Int]
    var lines: Int?
    var colour = "#ffffff"
    var height: Int?
    var lettering: Lettering

    init(_ weight: Weight, sizes: [Int], lines: Int?, colour: String = "#ffffff", height: Int? = nil, in lettering: Lettering) {
        self.weight = weight
        self.sizes = sizes
        self.lines = lines
        self.colour = colour
        self.height = height
        self.lettering = lettering
    }

    func font(size: Int) -> String {
        "\(lettering.family) \(weight.rawValue) \(size)"
    }

    /// `text` drawn to fit `width` and this block's room; nil for an empty text. Each layout is
    /// costly, so sizes that cannot fit are not tried and the cut is guessed from the height.
    func draw(_ text: String, width: Int) throws(VipsFailure) -> Pixels? {
        var text = Self.oneLine(text)
        guard !text.isEmpty, let smallest = sizes.last else { return nil }
        // Never more than could fit at the smallest size in the narrowest letters (a quarter
        // of the size wide), so a very long text is not laid out whole.
        let lines = try room(size: smallest) / smallest + 1
        let mostCharacters = lines * (width / max(smallest / 4, 1) + 1)
        if text.count > mostCharacters { text = text.shortened(toAtMost: mostCharacters) }
        var height = 0
        for size in sizes {
            // Text covers an area: one size smaller, its height shrinks with the square of the size.
            let room = try room(size: size)
            if height > 0, size != smallest, Double(height) * Double(size * size) / Double(sizes[0] * sizes[0]) > Double(room) * 1.2 { continue }
            guard let drawn = try Self.inked(Vips.text(markup(text), font: font(size: size), width: width)) else { return nil }
            if try fits(drawn, size: size, width: width) { return try Pixels(drawn) }
            if size == sizes[0] { height = drawn.height }
            if size == smallest { height = drawn.height }
        }
        // At the smallest size: shortened in proportion to how much too tall it is, until it fits.
        let room = try room(size: smallest)
        var count = text.count
        for _ in 0..<8 {
            count = min(count - 1, count * room / max(height, 1) * 19 / 20)
            guard count > 0 else { return nil }
            guard let drawn = try Self.inked(Vips.text(markup(text.shortened(toAtMost: count)), font: font(size: smallest), width: width)) else { return nil }
            if try fits(drawn, size: smallest, width: width) { return try Pixels(drawn) }
            height = max(drawn.height, room + 1)
        }
        return nil
    }

    /// The drawn text, or nil when it leaves no ink: libvips refuses to make an image of a
    /// text of invisible characters only (a name of a zero-width space), which is a text with
    /// nothing to show, not a card that cannot be drawn.
    private static func inked(_ draw: @autoclosure () throws(VipsFailure) -> Thumbnail) throws(VipsFailure) -> Thumbnail? {
        do {
            return try draw()
        } catch where error.reason.contains("no text to render") {
            return nil
        }
    }

    private func fits(_ drawn: Thumbnail, size: Int, width: Int) throws(VipsFailure) -> Bool {
        let room = try room(size: size)
        return drawn.width <= width && drawn.height <= room
    }

    /// The height this block may take at `size`: its pixel height, or its lines at that size
    /// (with half a line to spare for the taller lines emoji make, never a whole line).
    private func room(size: Int) throws(VipsFailure) -> Int {
        if let height { return height }
        let line = try Self.lineHeight(font(size: size))
        return line * (lines ?? 1) + line / 2
    }

    private static let lineHeights = Mutex<[String: Int]>([:])

    /// The height of one line of `font`, measured once.
    private static func lineHeight(_ font: String) throws(VipsFailure) -> Int {
        if let known = lineHeights.withLock({ $0[font] }) { return known }
        let measured = try Vips.text("Ág", font: font, width: 10_000).height
        lineHeights.withLock { $0[font] = measured }
        return measured
    }

    /// `text` on one line (line ends and tabs as spaces, runs of spaces as one, control
    /// characters and bidirectional formatting characters dropped): cards show single lines of
    /// text, wrapped by Pango, which finds each run's direction itself; an embedding or
    /// isolate left open, or a stray closing one, would only turn the rest of the line.
    static func oneLine(_ text: String) -> String {
        var result = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else if scalar.properties.generalCategory != .control, !Self.bidiFormatting.contains(scalar.value) {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        return result.trimmingWhitespace()
    }

    /// The marks, embeddings, overrides and isolates of the Unicode bidirectional algorithm.
    private static let bidiFormatting: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    /// Pango markup that shows `text` as it is, in this block's colour and language.
    private func markup(_ text: String) -> String {
        "<span foreground=\"\(colour)\" lang=\"\(MarkupText.escaped(lettering.language))\">\(MarkupText.escaped(text))</span>"
    }
}

/// The face a card's text is drawn in, by the language it is written in. Noto Sans CJK covers
/// Latin, kana, hangul and Han characters, and draws the Han characters each language's way
/// (骨 and 直 differ between Japanese and Chinese); fontconfig finds emoji in Noto Color Emoji.
/// (Naming that font here too would make Pango draw digits as emoji.)
struct Lettering: Hashable, Sendable {
    /// The BCP 47 tag, for Pango's `lang`.
    var language: String
    var family: String

    init(language: String) {
        self.language = language
        family = "Noto Sans CJK " + Self.variant(of: language)
    }

    /// The Noto Sans CJK variant for a tag: KR for Korean, SC, TC or HK for Chinese by script
    /// and region, and JP for Japanese and every other language.
    static func variant(of language: String) -> String {
        let subtags = language.split(separator: "-").map { $0.lowercased() }
        switch subtags.first {
        case "ko": return "KR"
        case "zh", "yue", "cmn":
            if subtags.contains("hans") { return "SC" }
            if subtags.contains("hk") || subtags.contains("mo") { return "HK" }
            if subtags.contains("hant") || subtags.contains("tw") || subtags.first == "yue" { return "TC" }
            return "SC"
        default: return "JP"
        }
    }
}
