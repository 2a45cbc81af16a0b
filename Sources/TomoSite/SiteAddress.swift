import TomoCore

/// Where the site lives: turns the site's own paths into the absolute URLs feeds, the sitemap
/// and Open Graph need.
public struct SiteAddress: Sendable, Hashable {
    /// Absolute, http or https, ending in `/`.
    public let baseURL: String

    /// Checks `text` is an absolute http(s) address; adds the final `/` when missing.
    public init(_ text: String) throws(Diagnostic) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
              text.split(separator: "/", omittingEmptySubsequences: true).count >= 2,
              !text.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" }) else {
            throw Diagnostic("base URL \"\(text)\" must be an absolute http or https address, like https://example.com/")
        }
        baseURL = text.hasSuffix("/") ? text : text + "/"
    }

    /// `/alice/` for the path `alice/`: the link a page uses.
    public func path(_ relative: String) -> String { "/" + relative }

    /// `https://example.com/alice/` for `alice/`.
    public func absolute(_ relative: String) -> String { baseURL + relative }
}
