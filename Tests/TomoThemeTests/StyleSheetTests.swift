import Foundation
import Testing
import TomoTestSupport
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

    /// A user without an icon gets a placeholder in exactly the box a real icon takes: the same
    /// size, margins and flex, and the real icon's `<source>`s take no place beside it (an empty
    /// flex item still gets a gap, which once pushed real icons 12 px further in than placeholders).
    @Test(arguments: [
        (["main.profile", "div.profile-card", "picture", "img.icon.u-photo"], ["main.profile", "div.profile-card", "div.icon.icon-placeholder"]),
        (["li.user-card", "a", "picture", "img.icon"], ["li.user-card", "a", "span.icon.icon-placeholder"]),
        (["header.post-header", "a.post-owner", "picture", "img.owner-icon"], ["header.post-header", "a.post-owner", "span.owner-icon.icon-placeholder"]),
    ])
    func aPlaceholderTakesTheBoxOfTheIconItStandsFor(image: [String], placeholder: [String]) {
        for property in ["width", "height", "margin", "margin-top", "flex", "border", "border-radius", "position"] {
            let real = StyleRule.winner(of: property, for: image.map(Element.init), in: Self.rules)?.value
            let standIn = StyleRule.winner(of: property, for: placeholder.map(Element.init), in: Self.rules)?.value
            #expect(real == standIn, "\(placeholder.last ?? ""): \(property) \(standIn ?? "unset"), the icon's \(real ?? "unset")")
        }
        let source = Array(image.dropLast()) + ["source"]
        #expect(StyleRule.winner(of: "display", for: image.dropLast().map(Element.init), in: Self.rules)?.value == "contents")
        #expect(StyleRule.winner(of: "display", for: source.map(Element.init), in: Self.rules)?.value == "none")
    }

    /// A post card's photo link is the photo's box (not an inline box the card's
    /// `overflow: hidden` clips) with a focus ring drawn inside it, in the link colour of the
    /// scheme, and a ring of the card's colour within it that shows on any photo.
    @Test func aPostCardsLinkShowsAFocusRingInsideTheCard() throws {
        let link = ["li.post-item", "article.post-card", "a.post-link"].map(Element.init)
        #expect(StyleRule.winner(of: "display", for: link, in: Self.rules)?.value == "block")
        #expect(StyleRule.winner(of: "overflow", for: Array(link.dropLast()), in: Self.rules)?.value == "hidden")
        let focused = Self.rules.filter { $0.selector == ".post-link:focus-visible" }.flatMap(\.declarations)
        let outline = try #require(focused.first { $0.property == "outline" }?.value)
        #expect(outline.contains("solid") && outline.contains("var(--link)"), "outline: \(outline)")
        let offset = try #require(focused.first { $0.property == "outline-offset" }?.value)
        let width = outline.split(separator: " ").first { $0.hasSuffix("px") }.flatMap { Double($0.dropLast(2)) } ?? 0
        #expect(width >= 2 && Double(offset.dropLast(2)) == -width, "the outline (\(outline)) is drawn inside the link: outline-offset \(offset)")
        let inner = Self.rules.filter { $0.selector == ".post-link:focus-visible::after" }.flatMap(\.declarations)
        #expect(inner.contains { $0.property == "box-shadow" && $0.value.contains("var(--surface)") })
        #expect(StyleRule.winner(of: "position", for: link, in: Self.rules)?.value == "relative")
    }

    /// On a post page the owner's name may wrap over lines, but the handle beside it never
    /// shrinks: it moves whole onto a line of its own, no wider than the line (so only a handle
    /// longer than the line breaks), as on the profile and in the user cards.
    @Test func aPostPagesHandleMovesWholeOntoItsOwnLine() {
        let text = ["header.post-header", "a.post-owner", "span.owner-text"].map(Element.init)
        let handle = text + [Element("span.handle")]
        let name = text + [Element("span.name")]
        #expect(StyleRule.winner(of: "display", for: text, in: Self.rules)?.value == "flex")
        #expect(StyleRule.winner(of: "flex-wrap", for: text, in: Self.rules)?.value == "wrap")
        #expect(StyleRule.winner(of: "min-width", for: text, in: Self.rules)?.value == "0")
        #expect(StyleRule.winner(of: "flex-shrink", for: handle, in: Self.rules)?.value == "0")
        #expect(StyleRule.winner(of: "max-width", for: handle, in: Self.rules)?.value == "100%")
        #expect(StyleRule.winner(of: "max-width", for: name, in: Self.rules)?.value == "100%")
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
        ["main.post-page", "article.post", "header.post-header", "a.post-owner", "span.owner-text", "span.name"],
        ["main.post-page", "article.post", "header.post-header", "a.post-owner", "span.owner-text", "span.handle"],
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
