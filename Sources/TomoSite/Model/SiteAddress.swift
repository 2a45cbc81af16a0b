import TomoCore

/// Where the site lives: the one place that turns the site's own paths (`alice/`,
/// `static/style.css`) into the links pages use and the absolute URLs feeds, the sitemap and
/// Open Graph need. Both carry the base URL's path, so a site hosted under a folder
/// (`https://example.github.io/mysite/`) links inside that folder.
public struct SiteAddress: Sendable, Hashable {
    /// Absolute, http or https, ending in `/`.
    public let baseURL: String
    /// The base URL's path, ending in `/`: `/` for `https://example.com/`, `/mysite/` for
    /// `https://example.github.io/mysite/` (escapes kept as written). Templates read it as
    /// `site.root`.
    public let root: String

    /// Checks `text` with the one rule for a site's address (`URLRules.siteAddressProblem`,
    /// which site.yaml's `baseURL` and `--base-url` are checked with too); adds the final `/`
    /// when missing.
    public init(_ text: String) throws(Diagnostic) {
        if let problem = URLRules.siteAddressProblem(text) {
            throw Diagnostic("base URL \(problem)")
        }
        let base = text.hasSuffix("/") ? text : text + "/"
        baseURL = base
        // The rule above leaves `scheme://authority/path/`, the authority without a `/`.
        let afterScheme = base.range(of: "://").map { base[$0.upperBound...] } ?? base[...]
        root = String(afterScheme.drop { $0 != "/" })
    }

    /// `/alice/` for the path `alice/` (`/mysite/alice/` under a folder): the link a page uses.
    public func path(_ relative: String) -> String { root + relative }

    /// `https://example.com/alice/` for `alice/`.
    public func absolute(_ relative: String) -> String { baseURL + relative }
}
