import TomoCore

/// Where the site lives: turns the site's own paths into the absolute URLs feeds, the sitemap
/// and Open Graph need.
public struct SiteAddress: Sendable, Hashable {
    /// Absolute, http or https, ending in `/`.
    public let baseURL: String

    /// Checks `text` with the one rule for a site's address (`URLRules.siteAddressProblem`,
    /// which site.yaml's `baseURL` and `--base-url` are checked with too); adds the final `/`
    /// when missing.
    public init(_ text: String) throws(Diagnostic) {
        if let problem = URLRules.siteAddressProblem(text) {
            throw Diagnostic("base URL \(problem)")
        }
        baseURL = text.hasSuffix("/") ? text : text + "/"
    }

    /// `/alice/` for the path `alice/`: the link a page uses.
    public func path(_ relative: String) -> String { "/" + relative }

    /// `https://example.com/alice/` for `alice/`.
    public func absolute(_ relative: String) -> String { baseURL + relative }
}
