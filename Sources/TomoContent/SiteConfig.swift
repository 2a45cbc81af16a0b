import TomoCore

/// `content/site.yaml`: the settings of the whole site.
public struct SiteConfig: Sendable, Hashable {
    /// The page kinds a site may leave out (`disableKinds`, as in Hugo): their files are not
    /// written and no page links to them.
    public enum PageKind: String, Sendable, Hashable, CaseIterable {
        /// `/<handle>/timeline/` and its pages.
        case timeline
        /// `/<handle>/followers/`.
        case followers
        /// `/<handle>/following/`.
        case following
        /// `/feed.xml` and `/<handle>/feed.xml`.
        case feed
        /// The share cards (`media/<handle>/card-….jpg`, `…/<slug>-card-….jpg`): a card is
        /// an image drawn for every profile and post, the costliest file of a build; without
        /// them a profile's link preview shows its header or icon, a post's its photo.
        case cards
    }

    public var title: String
    /// Absolute http(s) address ending in `/`, for feeds, the sitemap and Open Graph; nil when
    /// site.yaml has none (the build may take `--base-url`).
    public var baseURL: String?
    /// The address pages are made for when neither site.yaml nor `--base-url` gives one.
    public static let fallbackBaseURL = "http://localhost:8080/"

    /// The warning of a build or check whose pages are made for `fallbackBaseURL`: site.yaml has
    /// no `baseURL` and no address was `given` (`--base-url`, or the preview's own address).
    public func missingBaseURLWarning(given: String?) -> Diagnostic? {
        guard baseURL == nil, given == nil, let at = baseURLMissingAt else { return nil }
        return Diagnostic("no baseURL: feeds, the sitemap and Open Graph use \(Self.fallbackBaseURL) unless `tomo build --base-url` gives the site's address (add `baseURL: https://example.com/`)", at: at, severity: .warning)
    }
    /// The language of the theme's labels and dates, and of every page's `lang` (a profile
    /// may set its own: `Profile.language`).
    public var language: LanguageTag
    public var description: String?
    /// How many of the newest users the home page lists.
    public var homeUsers: Int
    /// Posts per timeline page.
    public var pageSize: Int
    /// The site's contact e-mail address (without `mailto:`).
    public var contact: String?
    /// Widths of the responsive image variants, ascending, without repeats.
    public var imageWidths: [Int]
    /// Page kinds not to publish.
    public var disabledKinds: Set<PageKind> = []
    /// The site icon (every page's `<link rel="icon">`), relative to `content/`; nil for the
    /// theme's default one.
    public var icon: String?
    /// Where site.yaml names the icon, for an error about the image.
    public var iconAt: SourceLocation?
    /// Where `baseURL` is written: a rule only the whole address can be held to (its ASCII
    /// form, its length in a QR code) is reported there.
    public var baseURLAt: SourceLocation?
    /// Where site.yaml would give `baseURL` when it does not (`missingBaseURLWarning`).
    public var baseURLMissingAt: SourceLocation?
    /// Whether profile pages show their QR code (`/<handle>/qr.svg`, made for every profile).
    public var qr = false
    /// `params:`, a custom theme's own settings, as templates receive them (`site.params`).
    public var params: [String: JSONValue] = [:]
    /// The look of every profile page that does not set its own (`Look.overridden(by:)`).
    public var look = Look()

    public func publishes(_ kind: PageKind) -> Bool { !disabledKinds.contains(kind) }

    public static let defaultHomeUsers = 50
    public static let defaultPageSize = 20
    public static let defaultImageWidths = [320, 640, 1280]

    public init(
        title: String, baseURL: String? = nil, language: LanguageTag = .english, description: String? = nil,
        homeUsers: Int = defaultHomeUsers, pageSize: Int = defaultPageSize, contact: String? = nil,
        imageWidths: [Int] = defaultImageWidths
    ) {
        self.title = title
        self.baseURL = baseURL
        self.language = language
        self.description = description
        self.homeUsers = homeUsers
        self.pageSize = pageSize
        self.contact = contact
        self.imageWidths = imageWidths
    }
}
