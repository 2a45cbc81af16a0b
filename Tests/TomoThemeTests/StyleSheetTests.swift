import Foundation
import Testing
import TomoTheme

/// The default style sheet read as the browser's cascade reads it: which declaration wins for an
/// element the templates write. scripts/check_layout.py measures the same in Chromium.
@Suite struct StyleSheetTests {
    static let css = String(decoding: BuiltinTheme.contents(of: "static/style.css") ?? Data(), as: UTF8.self)
    static let rules = StyleRule.parse(css)

    /// A user without an icon or a header: the placeholder's own colours must win over those
    /// of the icon and header images it stands in for (rule order and specificity).
    @Test(arguments: [
        ["main.profile", "div.profile-card", "div.icon.icon-placeholder"],
        ["li.user-card", "a", "span.icon.icon-placeholder"],
        ["header.post-header", "a.post-owner", "span.owner-icon.icon-placeholder"],
        ["main.profile", "div.profile-header", "div.header-image.header-placeholder"],
    ])
    func placeholdersPaintTheirOwnBackground(path: [String]) throws {
        let element = path.map(Element.init)
        let background = try #require(StyleRule.winner(of: "background", for: element, in: Self.rules))
        #expect(background.selector.contains("placeholder"), "\(path.last ?? ""): background from \(background.selector)")
        #expect(background.value.contains("gradient"))
        if path.last?.contains("icon") == true {
            let color = try #require(StyleRule.winner(of: "color", for: element, in: Self.rules))
            #expect(color.selector.contains("placeholder"), "initials coloured by \(color.selector)")
        }
    }

    /// Names, handles, summaries, captions and titles may be one 72-character word: each wraps
    /// (overflow-wrap is inherited, so a rule on the element or an ancestor will do).
    @Test(arguments: [
        ["main.profile", "div.profile-card", "h1.name.p-name"],
        ["main.profile", "div.profile-card", "p.handle", "a.u-url.u-uid", "span.p-nickname"],
        ["main.profile", "div.profile-card", "div.bio.p-note", "p"],
        ["li.user-card", "a", "span.card-text", "span.name"],
        ["li.user-card", "a", "span.card-text", "span.handle"],
        ["header.site-header", "a.site-title"],
        ["main.home", "h1.site-heading"],
        ["li.post-item", "article.post-card", "p.post-meta", "a.post-owner"],
        ["li.post-item", "article.post-card", "p.post-caption"],
        ["main.post-page", "article.post", "header.post-header", "a.post-owner", "span.name"],
        ["main.post-page", "article.post", "div.caption", "p"],
        ["main.user-list-page", "h1"],
        ["main.timeline-page", "p.back", "a"],
        ["main.timeline-page", "p.empty"],
        ["ul.items", "li.item.item-link", "a"],
        ["main.free-page", "div.page-body", "p"],
    ])
    func userTextWrapsAnywhere(path: [String]) {
        let element = path.map(Element.init)
        let wraps = element.indices.contains { end in
            StyleRule.winner(of: "overflow-wrap", for: Array(element[...end]), in: Self.rules)?.value == "anywhere"
        }
        #expect(wraps, "\(path.joined(separator: " > ")) does not wrap a long word")
    }

    /// A grid track of `1fr` is at least as wide as its content's longest word; `minmax(0, 1fr)`
    /// lets the card shrink to the screen and its text wrap.
    @Test func everyGridTrackCanShrinkBelowItsContent() {
        let tracks = Self.rules.flatMap { rule in rule.declarations.filter { $0.property == "grid-template-columns" }.map { (rule.selector, $0.value) } }
        #expect(!tracks.isEmpty)
        for (selector, value) in tracks {
            let bare = value.replacingOccurrences(of: "minmax(0, 1fr)", with: "")
            #expect(!bare.contains("fr"), "\(selector): grid-template-columns: \(value)")
        }
    }
}

/// An element as a selector sees it: its tag and classes (`div.icon.icon-placeholder`).
struct Element {
    var tag: String
    var classes: Set<String>

    init(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        tag = parts.first ?? ""
        classes = Set(parts.dropFirst())
    }
}

/// One selector of a rule of the style sheet (rules inside `@media` count as applying: the
/// tests ask what can win at some width), with the rule's declarations in order.
struct StyleRule {
    var selector: String
    var declarations: [(property: String, value: String)]

    /// A winning declaration and the selector it came from.
    struct Declaration {
        var selector: String
        var value: String
    }

    /// Rules of a style sheet without comments; an at-rule's block is read for the rules inside.
    static func parse(_ css: String) -> [StyleRule] {
        var text = css
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var rules: [StyleRule] = []
        var prelude = ""
        var body = ""
        var inBody = false
        for character in text {
            switch (character, inBody) {
            case ("{", false):
                if prelude.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("@") { prelude = "" } else { inBody = true }
            case ("}", true):
                let declarations = body.split(separator: ";").compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (line[..<colon].trimmingCharacters(in: .whitespacesAndNewlines),
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
                }
                for selector in prelude.split(separator: ",") {
                    rules.append(StyleRule(selector: selector.trimmingCharacters(in: .whitespacesAndNewlines), declarations: declarations))
                }
                prelude = ""
                body = ""
                inBody = false
            case ("}", false):
                prelude = ""  // the end of an at-rule's block
            case (_, true):
                body.append(character)
            default:
                prelude.append(character)
            }
        }
        return rules
    }

    /// The declaration of `property` that wins for the last element of `path` (its ancestors
    /// before it): highest specificity, then the later rule. `background-color` and
    /// `background-image` count as `background`.
    static func winner(of property: String, for path: [Element], in rules: [StyleRule]) -> Declaration? {
        var best: (specificity: [Int], selector: String, value: String)?
        for rule in rules where rule.matches(path) {
            for declaration in rule.declarations
            where declaration.property == property || (property == "background" && declaration.property.hasPrefix("background-")) {
                // Rules come in file order: a later one wins unless it is less specific.
                if let current = best, rule.specificity.lexicographicallyPrecedes(current.specificity) { continue }
                best = (rule.specificity, rule.selector, declaration.value)
            }
        }
        return best.map { Declaration(selector: $0.selector, value: $0.value) }
    }

    private var compounds: [Element] {
        selector.split(separator: " ").filter { $0 != ">" }.map { Element(String($0)) }
    }

    /// (classes, tags): what ranks two selectors of this style sheet (it has no ids).
    var specificity: [Int] {
        [compounds.reduce(0) { $0 + $1.classes.count }, compounds.reduce(0) { $0 + ($1.tag.isEmpty || $1.tag == "*" ? 0 : 1) }]
    }

    /// Descendant combinators only, as this style sheet uses; pseudo-classes never match.
    func matches(_ path: [Element]) -> Bool {
        var wanted = compounds
        guard !selector.contains(":"), let last = path.last, !wanted.isEmpty else { return false }
        func fits(_ compound: Element, _ element: Element) -> Bool {
            (compound.tag.isEmpty || compound.tag == "*" || compound.tag == element.tag) && compound.classes.isSubset(of: element.classes)
        }
        guard fits(wanted.removeLast(), last) else { return false }
        var ancestors = path.dropLast()
        while let compound = wanted.popLast() {
            guard let match = ancestors.lastIndex(where: { fits(compound, $0) }) else { return false }
            ancestors = ancestors[..<match]
        }
        return true
    }
}
