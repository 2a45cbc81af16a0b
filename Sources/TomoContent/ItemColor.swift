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

    init(name: String?, red: UInt8, green: UInt8, blue: UInt8) {
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
    /// The same choice as for any backdrop (`Backdrop.readable`), of which one colour is the
    /// simplest case.
    public var textColor: TextColor {
        Backdrop(self).readable().text
    }

    /// WCAG 2 contrast ratio `(L1 + 0.05) / (L2 + 0.05)`.
    public func contrast(with text: TextColor) -> Double {
        contrast(with: text.color)
    }

    /// WCAG 2 contrast ratio between two colours, 1 … 21.
    public func contrast(with other: ItemColor) -> Double {
        let one = relativeLuminance, two = other.relativeLuminance
        return (max(one, two) + 0.05) / (min(one, two) + 0.05)
    }

    /// The contrast every text on a page keeps with what it is written on (WCAG AA).
    public static let minimumContrast = 4.5

    /// This colour moved `fraction` (0 … 1, clamped) of the way to `other`, channel by channel
    /// in sRGB, as CSS draws a gradient between two hex colours; rounded to whole channels, as a
    /// page is painted.
    public func mixed(with other: ItemColor, _ fraction: Double) -> ItemColor {
        let share = min(max(fraction, 0), 1)
        func channel(_ from: UInt8, _ to: UInt8) -> UInt8 {
            UInt8((Double(from) + (Double(to) - Double(from)) * share).rounded())
        }
        return ItemColor(name: nil, red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue))
    }

    /// This colour as text on `backdrop`: itself when it reaches `minimumContrast` against every
    /// colour along it, else mixed toward the backdrop's own text colour (black or white) just
    /// far enough, so it keeps its hue as far as it can. Fully mixed, it is that text colour, which
    /// reads on any backdrop `Backdrop.readable` has made.
    public func readable(on backdrop: Backdrop) -> ItemColor {
        let target = backdrop.readable().text.color
        for step in 0...Backdrop.mixSteps {
            let candidate = mixed(with: target, Double(step) / Double(Backdrop.mixSteps))
            if backdrop.worstContrast(with: candidate) >= Self.minimumContrast { return candidate }
        }
        return target
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
        public var hex: String { color.hex }

        public var color: ItemColor {
            self == .black ? ItemColor(name: "black", red: 0, green: 0, blue: 0) : ItemColor(name: "white", red: 255, green: 255, blue: 255)
        }

        /// The colour text of this colour never is: white under black text.
        public var opposite: TextColor { self == .black ? .white : .black }
    }
}

/// What text is written on: one colour, or a gradient from `start` to `end` (drawn in sRGB, as
/// CSS draws one between hex colours). Text on it must read against every colour along it.
public struct Backdrop: Sendable, Hashable {
    public var start: ItemColor
    public var end: ItemColor

    public init(_ color: ItemColor) {
        self.init(from: color, to: color)
    }

    public init(from start: ItemColor, to end: ItemColor) {
        self.start = start
        self.end = end
    }

    public var isGradient: Bool { start.hex != end.hex }

    /// How finely `readable` mixes: one step moves a colour 1/64 of the way.
    static let mixSteps = 64

    /// The colours along it, both ends included: 256 steps, one per value a channel can take,
    /// so no stretch between two of them holds a colour much darker or lighter than both.
    /// (Luminance need not be monotonic along a gradient: red to green is darker in between.)
    public var colors: [ItemColor] {
        guard isGradient else { return [start] }
        return (0...255).map { start.mixed(with: end, Double($0) / 255) }
    }

    /// The lowest contrast `text` has against any colour along the backdrop.
    public func worstContrast(with text: ItemColor) -> Double {
        colors.map { $0.contrast(with: text) }.min() ?? 1
    }

    /// Black or white text, whichever reads better against the backdrop's worst colour for it,
    /// with the backdrop that text reaches `ItemColor.minimumContrast` on: this one when it
    /// already does (always, for one colour: see `ItemColor.textColor`), else a gradient whose
    /// ends are mixed toward the other of black and white just far enough (a gradient from
    /// black to white gets lighter under black text). Fully mixed, the backdrop is white under
    /// black text (21:1), so the search always ends.
    public func readable() -> (backdrop: Backdrop, text: ItemColor.TextColor) {
        let text: ItemColor.TextColor = worstContrast(with: ItemColor.TextColor.black.color) >= worstContrast(with: ItemColor.TextColor.white.color) ? .black : .white
        let away = text.opposite.color
        for step in 0...Self.mixSteps {
            let fraction = Double(step) / Double(Self.mixSteps)
            let candidate = Backdrop(from: start.mixed(with: away, fraction), to: end.mixed(with: away, fraction))
            if candidate.worstContrast(with: text.color) >= ItemColor.minimumContrast { return (candidate, text) }
        }
        return (Backdrop(away), text)
    }
}
