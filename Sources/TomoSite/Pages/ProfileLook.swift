import TomoContent
import TomoCore

/// What a profile page's `<body>` gets from its theme (the site's, overridden by the profile's):
/// classes made of `Look`'s words and custom properties holding `#rrggbb` colours, nothing a
/// user wrote. The style sheet says where each is used; the colours are chosen here so that
/// every text keeps `ItemColor.minimumContrast` with what it is written on, light and dark.
enum ProfileLook {
    /// The built-in style sheet's card surface (`--surface`), light and dark: links and
    /// unfilled buttons on the profile card are made readable against these
    /// (ThemeContrastTests measures the links against style.css's own `--surface`).
    static let cardSurface = (light: ItemColor(hex: "#ffffff") ?? .standard, dark: ItemColor(hex: "#1c1c21") ?? .standard)

    /// `page.theme`: null for a page without a theme.
    static func view(_ look: Look) -> JSONValue {
        guard !look.isEmpty else { return .null }
        let classes = [look.font.map { "font-" + $0.rawValue }, look.buttons.map { "buttons-" + $0.rawValue }].compactMap { $0 }
        let background: JSONValue = look.background.map { chosen in
            // A gradient no text colour reads on everywhere is lightened or darkened.
            let (backdrop, text) = chosen.readable()
            return ["start": .string(backdrop.start.hex), "end": .string(backdrop.end.hex), "text": .string(text.hex)]
        } ?? .null
        let accent: JSONValue = look.accent.map { color in
            [
                "fill": .string(color.hex),
                "text": .string(color.textColor.hex),
                "light": .string(color.readable(on: Backdrop(cardSurface.light)).hex),
                "dark": .string(color.readable(on: Backdrop(cardSurface.dark)).hex),
            ]
        } ?? .null
        return [
            "classes": classes.isEmpty ? .null : .string(classes.joined(separator: " ")),
            "background": background,
            "accent": accent,
            "hasColors": .bool(look.background != nil || look.accent != nil),
        ]
    }
}
