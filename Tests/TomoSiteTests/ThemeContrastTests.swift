import Foundation
import Testing
import TomoContent
import TomoTestSupport

/// Every text of a themed profile page against what it is written on, in light and dark: the
/// colours the page's `<body>` carries and the built style sheet's use of them, resolved as the
/// browser's cascade resolves them (custom properties, `var()` fallbacks, inheritance), then
/// WCAG 2 contrast against every colour along a gradient.
@Suite struct ThemeContrastTests {
    enum Mode: CaseIterable { case light, dark }

    /// The texts of a profile page, from `<body>` down, with the classes layout.mustache and
    /// profile.mustache (and post-card.mustache) give them.
    static let texts: [[String]] = [
        ["header.site-header", "a.site-title"],
        ["footer.site-footer"],
        ["footer.site-footer", "a"],
        ["main.profile", "section.posts", "h2"],
        ["main.profile", "section.posts", "p.empty"],
        ["main.profile", "div.profile-card", "h1.name.p-name"],
        ["main.profile", "div.profile-card", "p.handle", "a.u-url.u-uid"],
        ["main.profile", "div.profile-card", "div.bio.p-note", "p"],
        ["main.profile", "div.profile-card", "div.bio.p-note", "p", "a"],
        ["main.profile", "div.profile-card", "div.bio.p-note", "blockquote"],
        ["main.profile", "div.profile-card", "p.counts", "a"],
        ["main.profile", "div.profile-card", "p.profile-nav", "a"],
        ["main.profile", "div.profile-card", "ul.links", "li", "a.link"],
        ["main.profile", "div.profile-card", "p.email", "a"],
        ["main.profile", "section.posts", "ul.post-grid", "li.post-item", "article.post-card", "p.post-meta"],
        ["main.profile", "section.posts", "ul.post-grid", "li.post-item", "article.post-card", "p.post-meta", "a.post-owner"],
        ["main.profile", "section.posts", "ul.post-grid", "li.post-item", "article.post-card", "p.post-caption"],
    ]

    /// Backgrounds and accents at the edges: white, black, the greys around 4.5:1 against
    /// both, yellow, and gradients across the range (black to white, and hues whose middle is
    /// darker than both ends).
    static let backgrounds = [
        "\"#ffffff\"", "\"#000000\"", "\"#808080\"", "\"#777777\"", "\"#767676\"", "\"#757575\"", "yellow", "\"#1c1c21\"",
        "[\"#000000\", \"#ffffff\"]", "[\"#ffffff\", \"#000000\"]", "[red, \"#00ff00\"]", "[blue, yellow]", "[\"#767676\", \"#ffffff\"]",
        "[\"#000000\", \"#808080\"]", "[magenta, cyan]", "[\"#ff0000\", \"#0000ff\"]", "[\"#747474\", \"#787878\"]",
    ]
    static let accents = ["white", "black", "\"#808080\"", "yellow", "\"#767676\"", "\"#1c1c21\"", "\"#ffffff\"", "\"#8fb0ff\""]

    @Test func extremeAndRandomThemesKeepEveryTextReadable() throws {
        let seed = ProcessInfo.processInfo.environment["TOMO_THEME_SEED"].flatMap { UInt64($0) } ?? 17
        var random = SplitMix64(seed: seed)
        var themes: [String] = []
        for (index, background) in Self.backgrounds.enumerated() {
            for (offset, accent) in Self.accents.enumerated() {
                let buttons = Look.Buttons.allCases[(index + offset) % Look.Buttons.allCases.count]
                themes.append("theme:\n  accent: \(accent)\n  background: \(background)\n  buttons: \(buttons.rawValue)\n")
            }
            themes.append("theme:\n  background: \(background)\n")
        }
        for _ in 0..<120 { themes.append(Self.randomTheme(&random)) }
        // The site's theme is every profile's that leaves a key out.
        var files = ["content/site.yaml": SiteFolder.siteYAML + "theme:\n  accent: \"#ffd700\"\n  buttons: outline\n"]
        for (number, theme) in themes.enumerated() {
            files["content/users/u\(number).yaml"] = "name: U\(number)\nbio: Hi [there](https://example.com/)\nlinks:\n  website: https://example.com/\n" + theme
        }
        let site = try SiteFolder(files)
        try site.build()
        let sheet = ThemedSheet(try #require(site.page("static/style.css")))
        #expect(sheet.problems.isEmpty, "\(sheet.problems)")
        var checked = 0
        for (number, theme) in themes.enumerated() {
            let html = try #require(site.page("u\(number)/index.html"))
            let body = try #require(BodyTag(html), "u\(number)")
            #expect(body.problems.isEmpty, "u\(number): \(body.problems)")
            for mode in Mode.allCases {
                for path in Self.texts {
                    let colors = sheet.colors(of: path, body: body, mode: mode)
                    guard let text = colors.text, let backdrop = colors.backdrop else {
                        Issue.record("seed \(seed), u\(number) \(mode) \(path.last ?? ""): no colour (\(colors))")
                        continue
                    }
                    let worst = Self.worstContrast(of: text, on: backdrop)
                    #expect(worst >= ItemColor.minimumContrast, "seed \(seed), \(mode), \(path.joined(separator: " > ")): \(text.hex) on \(backdrop.start.hex)…\(backdrop.end.hex) is \(worst):1 for\n\(theme)")
                    checked += 1
                }
            }
        }
        #expect(checked == themes.count * Mode.allCases.count * Self.texts.count)
    }

    /// site.yaml's theme reaches every profile page; a profile's own keys replace it one by one;
    /// a page without a theme keeps a bare `<body>`.
    @Test func siteThemeIsEveryProfilesAndAProfileOverridesItKeyByKey() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "theme:\n  accent: \"#ff0000\"\n  background: \"#102030\"\n  buttons: square\n",
            "content/users/plain.yaml": "name: Plain\n",
            "content/users/own.yaml": "name: Own\ntheme:\n  accent: \"#00ff00\"\n  font: serif\n",
            "content/users/mono.yaml": "name: Mono\ntheme: {font: mono}\n",
        ])
        try site.build()
        func body(_ path: String) throws -> BodyTag {
            let html = try #require(site.page(path))
            return try #require(BodyTag(html))
        }
        let plain = try body("plain/index.html")
        #expect(plain.classes == ["buttons-square"])
        #expect(plain.style["--theme-accent"] == "#ff0000")
        #expect(plain.style["--theme-background-start"] == "#102030")
        #expect(plain.style["--theme-on-background"] == "#ffffff")
        let own = try body("own/index.html")
        #expect(own.classes == ["font-serif", "buttons-square"])
        #expect(own.style["--theme-accent"] == "#00ff00")
        #expect(own.style["--theme-on-accent"] == "#000000")
        #expect(own.style["--theme-background-end"] == "#102030")
        #expect(try #require(site.page("index.html")).contains("<body>\n"))

        try site.write("content/site.yaml", SiteFolder.siteYAML)
        try site.build()
        #expect(try #require(site.page("plain/index.html")).contains("<body>\n"))
        #expect(try body("own/index.html").style["--theme-background-start"] == nil)
        // A theme of no colours has no style attribute.
        #expect(try #require(site.page("mono/index.html")).contains("<body class=\"font-mono\">\n"))
    }

    /// A theme of random keys: each key there or not; colours as names or hex.
    static func randomTheme(_ random: inout SplitMix64) -> String {
        func color() -> String {
            random.chance(0.2) ? random.pick(ItemColor.names) : "\"#" + String(format: "%06x", Int.random(in: 0...0xFFFFFF, using: &random)) + "\""
        }
        var lines = ["theme:"]
        if random.chance(0.7) { lines.append("  accent: \(color())") }
        if random.chance(0.8) { lines.append("  background: " + (random.chance(0.5) ? "[\(color()), \(color())]" : color())) }
        if random.chance(0.5) { lines.append("  font: " + random.pick(Look.Font.allCases).rawValue) }
        if random.chance(0.5) { lines.append("  buttons: " + random.pick(Look.Buttons.allCases).rawValue) }
        return lines.count == 1 ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// WCAG 2 contrast of `text` against the darkest or lightest of the colours a browser
    /// paints along `backdrop` (511 steps, channels rounded), computed here from the WCAG
    /// formulas rather than with the code under test.
    static func worstContrast(of text: ItemColor, on backdrop: Backdrop) -> Double {
        func luminance(_ channels: [Double]) -> Double {
            let linear = channels.map { value in
                let share = value / 255
                return share <= 0.04045 ? share / 12.92 : pow((share + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let start = [backdrop.start.red, backdrop.start.green, backdrop.start.blue].map(Double.init)
        let end = [backdrop.end.red, backdrop.end.green, backdrop.end.blue].map(Double.init)
        let textLuminance = luminance([text.red, text.green, text.blue].map(Double.init))
        let steps = backdrop.start == backdrop.end ? 0 : 510
        return (0...steps).map { step in
            let share = Double(step) / 510
            let painted = luminance(zip(start, end).map { ($0 + ($1 - $0) * share).rounded() })
            return (max(painted, textLuminance) + 0.05) / (min(painted, textLuminance) + 0.05)
        }.min() ?? 1
    }
}

/// A profile page's `<body>` tag: its classes and its inline custom properties, with what in
/// them is not a checked word or a `#rrggbb` colour.
struct BodyTag {
    var classes: [String]
    var style: [String: String]
    var problems: [String] = []

    init?(_ html: String) {
        guard let tag = html.range(of: "<body[^>]*>", options: .regularExpression).map({ String(html[$0]) }) else { return nil }
        func attribute(_ name: String) -> String? {
            guard let range = tag.range(of: " \(name)=\"[^\"]*\"", options: .regularExpression) else { return nil }
            return String(tag[range].dropFirst(name.count + 3).dropLast())
        }
        classes = (attribute("class") ?? "").split(separator: " ").map(String.init)
        let words = Look.Font.allCases.map { "font-" + $0.rawValue } + Look.Buttons.allCases.map { "buttons-" + $0.rawValue }
        problems += classes.filter { !words.contains($0) }.map { "class \($0)" }
        style = [:]
        for declaration in (attribute("style") ?? "").split(separator: ";") where !declaration.allSatisfy(\.isWhitespace) {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].range(of: "^--theme-[a-z-]+$", options: .regularExpression) != nil,
                  parts[1].range(of: "^#[0-9a-f]{6}$", options: .regularExpression) != nil else {
                problems.append("style \(declaration)")
                continue
            }
            style[parts[0]] = parts[1]
        }
    }
}

/// The built style sheet, read for what colours a text of the profile page gets in one mode.
/// What the rules say depends only on the mode, the body's classes and the element, so each
/// reading is kept; only the body's own properties differ from page to page.
final class ThemedSheet {
    let rules: [StyleRule]
    /// Rules this reading cannot follow: custom properties set below `<body>`.
    var problems: [String] = []
    private var declaredOnBody: [String: [String: String]] = [:]
    private var winners: [String: (color: String?, background: String?)] = [:]

    init(_ css: String) {
        rules = StyleRule.parse(css)
        for rule in rules where rule.declarations.contains(where: { $0.property.hasPrefix("--") }) {
            let selector = rule.selector
            if !(selector == ":root" || selector == "body" || selector.hasPrefix(".font-") || selector.hasPrefix(".buttons-")) {
                problems.append("\(selector) sets custom properties")
            }
        }
    }

    private func live(_ mode: ThemeContrastTests.Mode) -> [StyleRule] {
        mode == .light ? lightRules : darkRules
    }

    private lazy var lightRules = rules(in: .light)
    private lazy var darkRules = rules(in: .dark)

    private func rules(in mode: ThemeContrastTests.Mode) -> [StyleRule] {
        rules.filter { rule in
            guard let media = rule.media else { return true }
            if media.contains("prefers-color-scheme: dark") { return mode == .dark }
            return media.contains("min-width")
        }
    }

    /// The text colour and the backdrop of the last element of `path` (below `<body>`).
    func colors(of path: [String], body: BodyTag, mode: ThemeContrastTests.Mode) -> (text: ItemColor?, backdrop: Backdrop?) {
        let properties = customProperties(body: body, mode: mode)
        let elements = [Element((["body"] + body.classes).joined(separator: "."))] + path.map(Element.init)
        var text: ItemColor?
        var backdrop: Backdrop?
        for end in elements.indices.reversed() {
            let prefix = Array(elements[...end])
            let key = "\(mode) \(body.classes) \(path[..<max(end, 0)])"
            let found = winners[key] ?? (
                StyleRule.winner(of: "color", for: prefix, in: live(mode))?.value,
                StyleRule.winner(of: "background", for: prefix, in: live(mode))?.value
            )
            winners[key] = found
            if text == nil, let value = found.color.flatMap({ Self.substitute($0, properties) }), value != "inherit" {
                text = ItemColor(hex: value)
            }
            if backdrop == nil, let value = found.background.flatMap({ Self.substitute($0, properties) }), value != "transparent" {
                let hexes = value.matches(of: /#[0-9a-f]{6}/).compactMap { ItemColor(hex: String($0.output)) }
                if value.hasPrefix("linear-gradient"), hexes.count >= 2 {
                    backdrop = Backdrop(from: hexes[0], to: hexes[1])
                } else if let color = hexes.first {
                    backdrop = Backdrop(color)
                }
            }
        }
        return (text, backdrop)
    }

    /// The custom properties `<body>` has: `:root`'s, then the rules for `<body>`, then its
    /// own style attribute; each with its `var()`s substituted.
    private func customProperties(body: BodyTag, mode: ThemeContrastTests.Mode) -> [String: String] {
        let key = "\(mode) \(body.classes)"
        let byRules = declaredOnBody[key] ?? declaredByRules(classes: body.classes, rules: live(mode))
        declaredOnBody[key] = byRules
        let declared = byRules.merging(body.style) { _, inline in inline }
        return declared.compactMapValues { Self.substitute($0, declared) }
    }

    /// `:root`'s custom properties, then those of the rules for a `<body>` of these classes.
    private func declaredByRules(classes: [String], rules: [StyleRule]) -> [String: String] {
        var root: [String: String] = [:]
        for rule in rules where rule.selector == ":root" {
            for declaration in rule.declarations where declaration.property.hasPrefix("--") { root[declaration.property] = declaration.value }
        }
        let element = [Element((["body"] + classes).joined(separator: "."))]
        let names = Set(rules.flatMap { $0.declarations.map(\.property) }.filter { $0.hasPrefix("--") })
        var declared: [String: String] = [:]
        for name in names {
            if let winner = StyleRule.winner(of: name, for: element, in: rules) { declared[name] = winner.value }
        }
        // A body property's var() reads the body's other properties, which read the root's.
        return root.compactMapValues { Self.substitute($0, root) }.merging(declared) { _, own in own }
    }

    /// `value` with each `var(--name, fallback)` replaced; nil when one has neither (the
    /// declaration is then invalid). Nested `var()`s in properties resolve up to a fixed depth.
    static func substitute(_ value: String, _ properties: [String: String], depth: Int = 0) -> String? {
        guard depth < 16 else { return nil }
        guard let start = value.range(of: "var(") else { return value }
        var level = 1
        var index = start.upperBound
        var comma: String.Index?
        while index < value.endIndex, level > 0 {
            switch value[index] {
            case "(": level += 1
            case ")": level -= 1
            case "," where level == 1 && comma == nil: comma = index
            default: break
            }
            if level > 0 { index = value.index(after: index) }
        }
        guard index < value.endIndex else { return nil }
        let name = value[start.upperBound..<(comma ?? index)].trimmingCharacters(in: .whitespaces)
        let fallback = comma.map { value[value.index(after: $0)..<index].trimmingCharacters(in: .whitespaces) }
        let replacement = properties[name].flatMap { substitute($0, properties, depth: depth + 1) } ?? fallback.flatMap { substitute($0, properties, depth: depth + 1) }
        guard let replacement else { return nil }
        return substitute(String(value[..<start.lowerBound]) + replacement + String(value[value.index(after: index)...]), properties, depth: depth + 1)
    }
}
