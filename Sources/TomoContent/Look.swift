/// A profile's look (`theme:` in a profile, or the site-wide default in site.yaml): every key
/// is optional, and a profile's keys override the site's one by one (`overridden(by:)`).
public struct Look: Sendable, Hashable {
    /// The font stacks the style sheet defines (`.font-<name>`): fonts every system has or
    /// falls back from, so a page never loads a font from elsewhere.
    public enum Font: String, Sendable, Hashable, CaseIterable {
        case system, serif, rounded, mono
    }

    /// The link buttons' (and items') shape; `outline` draws them unfilled.
    public enum Buttons: String, Sendable, Hashable, CaseIterable {
        case rounded, pill, square, outline
    }

    /// The link buttons' fill (and the colour links take, made readable where they are text).
    public var accent: ItemColor?
    /// The page behind the profile card: one colour or a two-colour gradient.
    public var background: Backdrop?
    public var font: Font?
    public var buttons: Buttons?

    public init(accent: ItemColor? = nil, background: Backdrop? = nil, font: Font? = nil, buttons: Buttons? = nil) {
        self.accent = accent
        self.background = background
        self.font = font
        self.buttons = buttons
    }

    /// This theme with every key `other` sets taken from `other`.
    public func overridden(by other: Look) -> Look {
        Look(
            accent: other.accent ?? accent,
            background: other.background ?? background,
            font: other.font ?? font,
            buttons: other.buttons ?? buttons
        )
    }

    public var isEmpty: Bool { self == Look() }
}
