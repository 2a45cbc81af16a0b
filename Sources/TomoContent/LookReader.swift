import TomoCore
import TomoYAML

/// Reads `theme:` (in a profile or in site.yaml) into a `Look`: only checked values (colours,
/// the words of `Look.Font` and `Look.Buttons`) come out, so only they can reach a page.
enum LookReader {
    static let table = KeyTable("a theme", [
        KeySpec("accent", .color, "The link buttons' fill and the links' colour: a colour name or \"#rrggbb\" (text on it, and it as text, is kept readable)."),
        KeySpec("background", .gradient, "The page's background: a colour, or two for a gradient (e.g. [\"#ffd6e0\", \"#c9e7ff\"])."),
        KeySpec("font", .word(Look.Font.allCases.map(\.rawValue)), "The font: \(words(Look.Font.self))."),
        KeySpec("buttons", .word(Look.Buttons.allCases.map(\.rawValue)), "The link buttons' shape: \(words(Look.Buttons.self))."),
    ])

    /// The `theme` key of `fields`; an empty theme when it is absent or wrong (reported).
    static func read(_ fields: Fields, reader: NodeReader) -> Look {
        guard let node = reader.value(fields, "theme"), let keys = reader.fields(of: node, table: table) else { return Look() }
        return Look(
            accent: reader.color(keys, "accent"),
            background: background(keys, reader: reader),
            font: word(keys, "font", Look.Font.self, reader: reader),
            buttons: word(keys, "buttons", Look.Buttons.self, reader: reader)
        )
    }

    private static func background(_ fields: Fields, reader: NodeReader) -> Backdrop? {
        guard let node = reader.value(fields, "background", example: "\"#ffd6e0\"") else { return nil }
        guard let elements = node.sequence else {
            return reader.color(node, named: "\"background\"").map { Backdrop($0) }
        }
        guard elements.count == 2 else {
            reader.error("a background gradient takes two colours, found \(elements.count): write `background: [\"#ffd6e0\", \"#c9e7ff\"]` (or one colour)", at: node.location)
            return nil
        }
        let colors = elements.compactMap { reader.color($0, named: "a gradient colour") }
        guard colors.count == 2 else { return nil }
        return Backdrop(from: colors[0], to: colors[1])
    }

    private static func word<Word: RawRepresentable & CaseIterable>(_ fields: Fields, _ key: String, _: Word.Type, reader: NodeReader) -> Word? where Word.RawValue == String {
        guard let node = reader.value(fields, key, example: Word.allCases.first?.rawValue),
              let text = reader.string(node, named: key.quotedValue) else { return nil }
        if let word = Word(rawValue: text) { return word }
        let names = Word.allCases.map(\.rawValue)
        reader.error("unknown \(key) \(text.quotedValue)\(Suggestion.hint(for: text, in: names)): \(key) takes \(words(Word.self))", at: node.location)
        return nil
    }

    /// "system, serif, rounded or mono".
    private static func words<Word: RawRepresentable & CaseIterable>(_: Word.Type) -> String where Word.RawValue == String {
        let names = Word.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }
}

extension NodeReader {
    /// A colour (`ValueRule.color`) at `key`, or nil: absent, or wrong and reported.
    func color(_ fields: Fields, _ key: String) -> ItemColor? {
        guard let node = value(fields, key, example: "\"#ff8000\"") else { return nil }
        return color(node, named: key.quotedValue)
    }

    /// A colour name (any letter case) or `#rrggbb`, or nil (reported with the fix).
    func color(_ node: YAMLNode, named name: String) -> ItemColor? {
        guard let text = string(node, named: name) else { return nil }
        if let color = ItemColor(text) { return color }
        let unquoted = text.trimmingCharacters(in: Suggestion.typographicQuotes)
        let suggestion = Suggestion.hint(for: text, in: ItemColor.names)
        let message = if unquoted != text, ItemColor(unquoted) != nil {
            "colour \(text.quotedValue) is between typographic quotes, which YAML reads as part of the text: write \(unquoted) with \" or ' or no quotes"
        } else if text.hasPrefix("#") {
            "colour \(text.quotedValue) is not #rrggbb: write six hex digits, e.g. \"#ff8000\""
        } else if !suggestion.isEmpty {
            "unknown colour \(text.quotedValue)" + suggestion
        } else {
            "unknown colour \(text.quotedValue): use one of \(ItemColor.names.joined(separator: ", ")) or \"#rrggbb\""
        }
        error(message, at: node.location)
        return nil
    }
}
