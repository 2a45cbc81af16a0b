/// The services a profile may link to, in the order pages list them.
public enum LinkService: String, Sendable, Hashable, CaseIterable {
    case twitter, instagram, facebook, github, youtube, tiktok, linkedin, mastodon, bluesky, threads, note, website, email

    /// `x` is accepted for twitter.
    static let aliases: [String: LinkService] = ["x": .twitter]

    /// Every key a `links:` mapping accepts.
    static let keys: [String] = allCases.map(\.rawValue) + aliases.keys.sorted()

    init?(key: String) {
        guard let service = LinkService(rawValue: key) ?? Self.aliases[key] else { return nil }
        self = service
    }

    /// The label shown next to the icon.
    public var label: String {
        switch self {
        case .twitter: "X (Twitter)"
        case .instagram: "Instagram"
        case .facebook: "Facebook"
        case .github: "GitHub"
        case .youtube: "YouTube"
        case .tiktok: "TikTok"
        case .linkedin: "LinkedIn"
        case .mastodon: "Mastodon"
        case .bluesky: "Bluesky"
        case .threads: "Threads"
        case .note: "note"
        case .website: "Website"
        case .email: "E-mail"
        }
    }
}
