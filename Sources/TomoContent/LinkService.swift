import TomoTheme

/// A service a profile may link to: one of the theme's own thirteen, drawn by its own icon
/// template (`icons/<key>`), or one of Simple Icons' brands, drawn from its mark's path data
/// (`templates/icons/brands.tsv`, written by scripts/make_brand_icons.py). Pages list the
/// theme's own first, in `builtinKeys` order, then the brands in the order the file writes them.
public struct LinkService: Sendable, Hashable {
    /// The `links:` key: `github`, `discord`.
    public let key: String
    /// The label shown next to the icon: the brand's name.
    public let label: String
    /// The mark's path data in a 24×24 box (`fill: currentColor`); nil for the theme's own
    /// services, which have icon templates.
    public let markPath: String?
    /// The place of a theme's own service in `builtinKeys`; nil for a brand.
    public let rank: Int?

    public static func == (left: LinkService, right: LinkService) -> Bool { left.key == right.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The theme's own services, in the order pages list them, with their labels.
    static let builtin: [(key: String, label: String)] = [
        ("twitter", "X (Twitter)"), ("instagram", "Instagram"), ("facebook", "Facebook"), ("github", "GitHub"),
        ("youtube", "YouTube"), ("tiktok", "TikTok"), ("linkedin", "LinkedIn"), ("mastodon", "Mastodon"),
        ("bluesky", "Bluesky"), ("threads", "Threads"), ("note", "note"), ("website", "Website"), ("email", "E-mail"),
    ]

    /// `x` is accepted for twitter.
    static let aliases: [String: String] = ["x": "twitter"]

    public static let email = own("email")
    public static let mastodon = own("mastodon")

    /// The theme's own service `key`.
    private static func own(_ key: String) -> LinkService {
        let rank = builtin.firstIndex { $0.key == key } ?? 0
        return LinkService(key: key, label: builtin[rank].label, markPath: nil, rank: rank)
    }

    /// Every service by key, aliases included.
    private static let byKey: [String: LinkService] = {
        var services: [String: LinkService] = [:]
        for service in builtin { services[service.key] = own(service.key) }
        for (alias, key) in aliases { services[alias] = services[key] }
        for brand in brands where services[brand.key] == nil { services[brand.key] = brand }
        return services
    }()

    /// Simple Icons' brands, from the theme's `icons/brands.tsv` (`slug<TAB>title<TAB>path`).
    private static let brands: [LinkService] = {
        guard let table = BuiltinTheme.text(of: "icons/brands.tsv") else { return [] }
        return table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return LinkService(key: String(fields[0]), label: String(fields[1]), markPath: String(fields[2]), rank: nil)
        }
    }()

    /// Every key a `links:` mapping accepts: the theme's own services, their aliases, then the
    /// brands by slug.
    static let keys: [String] = builtin.map(\.key) + aliases.keys.sorted() + brands.map(\.key).filter { key in
        !builtin.contains { $0.key == key } && aliases[key] == nil
    }

    init?(key: String) {
        guard let service = Self.byKey[key] else { return nil }
        self = service
    }

    private init(key: String, label: String, markPath: String?, rank: Int?) {
        self.key = key
        self.label = label
        self.markPath = markPath
        self.rank = rank
    }
}
