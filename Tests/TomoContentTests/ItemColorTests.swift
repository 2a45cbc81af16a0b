import Testing
@testable import TomoContent

@Suite struct ItemColorTests {
    @Test(arguments: ItemColor.names)
    func everyNamedColourHasReadableText(name: String) throws {
        let color = try #require(ItemColor(named: name))
        #expect(color.contrast(with: color.textColor) >= 4.5, "\(name) \(color.hex) on \(color.textColor)")
    }

    @Test func namedColoursHaveUIKitValues() {
        #expect(ItemColor(named: "darkGray")?.hex == "#555555")
        #expect(ItemColor(named: "lightgray")?.hex == "#aaaaaa")
        #expect(ItemColor(named: "orange")?.hex == "#ff8000")
        #expect(ItemColor(named: "purple")?.hex == "#800080")
        #expect(ItemColor(named: "brown")?.hex == "#996633")
        #expect(ItemColor.names.count == 14)
    }

    @Test func textColourFollowsTheBackground() {
        #expect(ItemColor(named: "yellow")?.textColor == .black)
        #expect(ItemColor(named: "blue")?.textColor == .white)
        #expect(ItemColor(named: "purple")?.textColor == .white)
        #expect(ItemColor(named: "gray")?.textColor == .black)
    }

    @Test func contrastMatchesWCAG() throws {
        let white = try #require(ItemColor(hex: "#FFFFFF"))
        #expect(white.contrast(with: white.textColor) == 21)
        // #767676 is the classic lightest grey that passes AA on white: 4.54:1.
        let gray = try #require(ItemColor(hex: "#767676"))
        #expect(abs(gray.contrast(with: .white) - 4.54) < 0.01)
    }

    @Test func anyHexColourGetsReadableText() throws {
        for value in stride(from: 0, through: 0xFFFFFF, by: 0x010203) {
            let digits = String(value, radix: 16)
            let hex = "#" + String(repeating: "0", count: 6 - digits.count) + digits
            let color = try #require(ItemColor(hex: hex))
            #expect(color.contrast(with: color.textColor) >= 4.5, "\(hex)")
        }
    }

    @Test func badHexIsRefused() {
        #expect(ItemColor("#ff80") == nil)
        #expect(ItemColor("#gg0000") == nil)
        #expect(ItemColor("#+f0000") == nil)
        #expect(ItemColor("ff8000") == nil)
    }
}

/// Text on a backdrop of one colour or a gradient, and a colour made readable as text.
@Suite struct BackdropTests {
    private func color(_ hex: String) throws -> ItemColor { try #require(ItemColor(hex: hex)) }

    @Test func oneColourIsNeverChanged() throws {
        for value in stride(from: 0, through: 0xFFFFFF, by: 0x030507) {
            let hex = "#" + String(format: "%06x", value)
            let (backdrop, text) = Backdrop(try color(hex)).readable()
            #expect(backdrop.start.hex == hex && backdrop.end.hex == hex)
            #expect(text == (try color(hex)).textColor)
        }
    }

    /// Black to white: neither black nor white text reads on all of it, so the gradient is
    /// lightened under black text (white text on black reads as well, so black wins the tie).
    @Test func gradientNoTextReadsOnIsLightenedOrDarkened() throws {
        let (backdrop, text) = Backdrop(from: try color("#000000"), to: try color("#ffffff")).readable()
        #expect(text == .black)
        #expect(backdrop.end.hex == "#ffffff")
        #expect(backdrop.start.relativeLuminance > 0.17)
        #expect(backdrop.worstContrast(with: text.color) >= 4.5)
        let (darkened, white) = Backdrop(from: try color("#000000"), to: try color("#b0b0b0")).readable()
        #expect(white == .white)
        #expect(darkened.start.hex == "#000000")
        #expect(darkened.worstContrast(with: white.color) >= 4.5)
    }

    /// Red to green is darker in the middle than at either end: the middle decides.
    @Test func theMiddleOfAGradientCounts() throws {
        let backdrop = Backdrop(from: try color("#ff0000"), to: try color("#00ff00"))
        #expect(backdrop.worstContrast(with: try color("#000000")) < min(try color("#ff0000").contrast(with: .black), try color("#00ff00").contrast(with: .black)))
    }

    /// An accent as text keeps its hue while it can: white on white becomes the grey that just
    /// reads, a readable colour stays itself.
    @Test func aColourAsTextIsMixedJustFarEnough() throws {
        let white = Backdrop(try color("#ffffff"))
        let grey = try color("#ffffff").readable(on: white)
        #expect(grey.contrast(with: try color("#ffffff")) >= 4.5)
        #expect(grey.contrast(with: try color("#ffffff")) < 5)
        #expect(try color("#2556d6").readable(on: white).hex == "#2556d6")
        let yellowOnDark = try color("#ffff00").readable(on: Backdrop(try color("#1c1c21")))
        #expect(yellowOnDark.hex == "#ffff00")
        let navyOnDark = try color("#000080").readable(on: Backdrop(try color("#1c1c21")))
        #expect(navyOnDark.contrast(with: try color("#1c1c21")) >= 4.5)
        #expect(navyOnDark.blue > navyOnDark.red)
    }
}
