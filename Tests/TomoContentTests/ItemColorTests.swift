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
