#if canImport(Glibc)
import Glibc
#endif
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
    /// Every command reads the table (the profile reader's keys come from it), so its
    /// megabytes are cut with `memchr` rather than split as Swift strings, which took most of
    /// a `tomo check`'s time.
    private static let brands: [LinkService] = {
        guard var table = BuiltinTheme.text(of: "icons/brands.tsv") else { return [] }
        return table.withUTF8 { bytes -> [LinkService] in
            guard let base = bytes.baseAddress else { return [] }
            func text(_ from: UnsafePointer<UInt8>, _ to: UnsafePointer<UInt8>) -> String {
                String(decoding: UnsafeBufferPointer(start: from, count: to - from), as: UTF8.self)
            }
            /// The next `byte` in `from..<end`, or nil.
            func next(_ byte: UInt8, from: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
                memchr(from, Int32(byte), end - from).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
            }
            var services: [LinkService] = []
            services.reserveCapacity(4_000)
            let end = base + bytes.count
            var line = base
            while line < end {
                let lineEnd = next(UInt8(ascii: "\n"), from: line, end: end) ?? end
                if let tab = next(UInt8(ascii: "\t"), from: line, end: lineEnd),
                   let secondTab = next(UInt8(ascii: "\t"), from: tab + 1, end: lineEnd),
                   next(UInt8(ascii: "\t"), from: secondTab + 1, end: lineEnd) == nil {
                    services.append(LinkService(key: text(line, tab), label: text(tab + 1, secondTab), markPath: text(secondTab + 1, lineEnd), rank: nil))
                }
                line = lineEnd + 1
            }
            return services
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
