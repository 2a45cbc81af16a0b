import Foundation
import TomoCore

/// A user's profile page content, from `content/users/<handle>.yaml` (or `.json`).
public struct Profile: Sendable, Hashable {
    /// What the file says; shared, not copied (see `SharedFields`).
    struct Fields: Sendable, Hashable {
        var handle: String
        var file: String
        var name: String
        var bio: Bio?
        var icon: String?
        var header: String?
        var links: [ProfileLink]
        var items: [ProfileItem]
        var itemColor: ItemColor
        var email: String?
        var showEmail: Bool
        var iconAt: SourceLocation?
        var headerAt: SourceLocation?
        var language: LanguageTag?
        var look: Look
    }

    private let shared: SharedFields<Fields>

    public init(handle: String, file: String, name: String, bio: Bio?, icon: String?, header: String?, links: [ProfileLink], items: [ProfileItem], itemColor: ItemColor, email: String?, showEmail: Bool, iconAt: SourceLocation? = nil, headerAt: SourceLocation? = nil, language: LanguageTag? = nil, look: Look = Look()) {
        shared = SharedFields(Fields(handle: handle, file: file, name: name, bio: bio, icon: icon, header: header, links: links, items: items, itemColor: itemColor, email: email, showEmail: showEmail, iconAt: iconAt, headerAt: headerAt, language: language, look: look))
    }

    public var handle: String { shared.fields.handle }
    /// The file it came from, relative to the site folder (`content/users/alice.yaml`).
    public var file: String { shared.fields.file }
    public var name: String { shared.fields.name }
    /// The bio as written (Markdown), its HTML (raw HTML and unsafe links removed), its
    /// first line as plain text (for cards) and its whole text without markup (for JSON-LD);
    /// nil without a bio.
    public var bio: Bio? { shared.fields.bio }
    /// The bio's `summary` (nil without a bio), read without copying the rest of the bio: the
    /// search index and the user lists ask for 10,000 of them at a time.
    public var bioSummary: String? { shared.fields.bio?.summary }
    /// Image paths relative to `content/users/`; the files exist and stay inside that folder.
    public var icon: String? { shared.fields.icon }
    public var header: String? { shared.fields.header }
    /// Where the profile names its icon and header (the value of `icon:`), for the image's errors.
    public var iconAt: SourceLocation? { shared.fields.iconAt }
    public var headerAt: SourceLocation? { shared.fields.headerAt }
    /// In page order: a `links:` mapping's theme services first (in `LinkService` order), then
    /// its brands as written; a `links:` list as written.
    public var links: [ProfileLink] { shared.fields.links }
    /// Every item in file order, hidden and dated ones included: ask `isShown(at:)`.
    public var items: [ProfileItem] { shared.fields.items }
    public var itemColor: ItemColor { shared.fields.itemColor }
    /// Private unless `showEmail`; the page must not print it otherwise.
    public var email: String? { shared.fields.email }
    public var showEmail: Bool { shared.fields.showEmail }
    /// The profile's own `language`; nil for the site's (`SiteConfig.language`).
    public var language: LanguageTag? { shared.fields.language }
    /// The profile's own `theme:` keys; its page shows the site's theme overridden by them.
    public var look: Look { shared.fields.look }

    /// Every image the profile names, by path relative to `content/users/`, with where it
    /// names it: icon, header, then the links' and the items' icons (of every item, shown or
    /// not). What a change to one of these files makes the page read again, and what `tomo
    /// check` checks.
    public var images: [(path: String, at: SourceLocation?)] { images(ofItems: items) }

    /// The images a page built at `date` shows: `images` less the icons of the items it does
    /// not show (hidden, or outside their `from`/`until`). What is thumbnailed and published:
    /// an item's icon is not published before the item is, nor after.
    public func images(shownAt date: Date) -> [(path: String, at: SourceLocation?)] {
        images(ofItems: items.filter { $0.isShown(at: date) })
    }

    private func images(ofItems items: [ProfileItem]) -> [(path: String, at: SourceLocation?)] {
        [(icon, iconAt), (header, headerAt)].compactMap { path, at in path.map { ($0, at) } }
            + links.compactMap { link in link.icon.map { ($0, link.iconAt) } }
            + items.compactMap { item in item.icon.map { ($0, item.iconAt) } }
    }

    /// The e-mail address the page may print: only with `showEmail: true`.
    public var publicEmail: String? { showEmail ? email : nil }

    /// This profile without what its page must never print: no private e-mail address and no
    /// `hidden: true` item. Every other field is kept as it is, whatever fields a profile
    /// gains; most profiles have nothing to take out and are returned as they are (no copy).
    public var published: Profile {
        guard publicEmail != email || items.contains(where: \.hidden) else { return self }
        var fields = shared.fields
        fields.email = publicEmail
        fields.items = items.filter { !$0.hidden }
        return Profile(fields)
    }

    private init(_ fields: Fields) {
        shared = SharedFields(fields)
    }

    public struct Bio: Sendable, Hashable {
        public var markdown: String
        public var html: String
        /// The first paragraph as plain text, shortened to `summaryLength` at a word boundary:
        /// what user cards, search results and the profile's description show.
        public var summary: String
        public var plainText: String

        /// Long enough for a sentence or two, short enough for a search result's snippet.
        public static let summaryLength = 160
    }
}

/// A link of the profile's `links:`: to a known service (its mark and name), or one the
/// profile labels itself (with its own icon, the service's mark, or none).
public struct ProfileLink: Sendable, Hashable {
    /// The service: a `links:` key, or a list entry's `service`.
    public var service: LinkService?
    /// What the page shows: the entry's `label`, else the service's name.
    public var label: String
    /// http, https or mailto.
    public var url: String
    /// An image relative to `content/users/` (it exists and stays inside), shown instead of a mark.
    public var icon: String?
    public var iconAt: SourceLocation?

    public init(service: LinkService?, label: String, url: String, icon: String? = nil, iconAt: SourceLocation? = nil) {
        self.service = service
        self.label = label
        self.url = url
        self.icon = icon
        self.iconAt = iconAt
    }

    /// Whether the link leads to a web page (http or https), not an e-mail address (a `mailto:`
    /// link, whether `email:` or a list entry gave it): what a profile's JSON-LD `sameAs` and
    /// its contact card's `URL` lines name.
    public var isWebPage: Bool {
        URLRules.scheme(of: url).map { $0 == "http" || $0 == "https" } ?? false
    }
}

/// A POMU.ME item: a comment, or a link when `url` is set.
public struct ProfileItem: Sendable, Hashable {
    public var text: String
    public var url: String?
    /// The item's own colour, or the profile's `itemColor`.
    public var color: ItemColor
    public var hidden: Bool
    /// An image relative to `content/users/` shown before the text (it exists and stays inside).
    public var icon: String?
    public var iconAt: SourceLocation?
    /// Shown from this instant on (inclusive).
    public var from: Date?
    /// Shown until just before this instant (a date's whole day is included).
    public var until: Date?

    /// Whether a page built at `date` shows this item.
    public func isShown(at date: Date) -> Bool {
        if hidden { return false }
        if let from, date < from { return false }
        if let until, date >= until { return false }
        return true
    }
}
