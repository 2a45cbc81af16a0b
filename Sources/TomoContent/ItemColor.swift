#if canImport(Glibc)
import Glibc  // pow
#elseif canImport(Darwin)
import Darwin
#endif

/// An item's background colour: one of POMU.ME's 14 names (UIKit's values) or `#rrggbb`,
/// with the text colour that reads on it.
public struct ItemColor: Sendable, Hashable {
    /// The colour name as written in the docs (`darkGray`), or nil for a `#rrggbb` colour.
    public var name: String?
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// The named colours in POMU.ME's order, with UIKit's values.
    public static let named: [(name: String, hex: String)] = [
        ("black", "#000000"), ("darkGray", "#555555"), ("lightGray", "#aaaaaa"), ("gray", "#808080"),
        ("red", "#ff0000"), ("green", "#00ff00"), ("blue", "#0000ff"), ("cyan", "#00ffff"),
        ("yellow", "#ffff00"), ("magenta", "#ff00ff"), ("orange", "#ff8000"), ("purple", "#800080"),
        ("brown", "#996633"), ("white", "#ffffff"),
    ]

    public static let names: [String] = named.map(\.name)

    /// The default when neither the item nor the profile's `itemColor` names one.
    public static let standard = ItemColor(name: "black", red: 0, green: 0, blue: 0)

    private init(name: String?, red: UInt8, green: UInt8, blue: UInt8) {
        self.name = name
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A named colour (any letter case: `darkgray` is `darkGray`), or nil.
    public init?(named text: String) {
        guard let entry = Self.named.first(where: { $0.name.lowercased() == text.lowercased() }),
              let color = ItemColor(hex: entry.hex) else { return nil }
        self = color
        name = entry.name
    }

    /// `#rrggbb` (either letter case), or nil.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        // UInt32(_:radix:) alone would accept a sign ("#+f0000").
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
              digits.dropFirst().allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
              let value = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16) else { return nil }
        name = nil
        red = UInt8((value >> 16) & 0xFF)
        green = UInt8((value >> 8) & 0xFF)
        blue = UInt8(value & 0xFF)
    }

    /// A name or `#rrggbb`, or nil.
    public init?(_ text: String) {
        if text.hasPrefix("#") {
            self.init(hex: text)
        } else {
            self.init(named: text)
        }
    }

    /// `#rrggbb` in lower case, for CSS.
    public var hex: String {
        "#" + [red, green, blue].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// Black or white, whichever contrasts more with this colour. One of the two always
    /// reaches 4.5:1 (WCAG AA): their ratios multiply to 21, so the larger is at least √21 ≈ 4.58.
    public var textColor: TextColor {
        contrast(with: .black) >= contrast(with: .white) ? .black : .white
    }

    /// WCAG 2 contrast ratio `(L1 + 0.05) / (L2 + 0.05)`.
    public func contrast(with text: TextColor) -> Double {
        let background = relativeLuminance
        let foreground = text == .black ? 0.0 : 1.0
        return (max(background, foreground) + 0.05) / (min(background, foreground) + 0.05)
    }

    /// WCAG 2 relative luminance of the sRGB colour, 0 (black) … 1 (white).
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    public enum TextColor: String, Sendable, Hashable {
        case black, white

        /// `#000000` or `#ffffff`, for CSS.
        public var hex: String { self == .black ? "#000000" : "#ffffff" }
    }
}
