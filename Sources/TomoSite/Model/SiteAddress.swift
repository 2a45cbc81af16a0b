import TomoContent
import TomoCore

/// Where the site lives: the one place that turns the site's own paths (`alice/`,
/// `static/style.css`) into the links pages use and the absolute URLs feeds, the sitemap and
/// Open Graph need. Both carry the base URL's path, so a site hosted under a folder
/// (`https://example.github.io/mysite/`) links inside that folder.
public struct SiteAddress: Sendable, Hashable {
    /// Absolute, http or https, in its canonical ASCII spelling (`canonical`), ending in `/`.
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
        let base = try Self.canonical(text.hasSuffix("/") ? text : text + "/")
        // Percent-encoded, a path is longer: it must still fit in a profile's QR code.
        if base != text + (text.hasSuffix("/") ? "" : "/"), let problem = URLRules.siteAddressProblem(base) {
            throw Diagnostic("base URL \(problem) (the address written in ASCII, as feeds and the sitemap need it)")
        }
        baseURL = base
        // The rule above leaves `scheme://authority/path/`, the authority without a `/`.
        let afterScheme = base.range(of: "://").map { base[$0.upperBound...] } ?? base[...]
        root = String(afterScheme.drop { $0 != "/" })
    }

    /// `address` as feeds, the sitemap and links take it, in the one spelling browsers and
    /// crawlers compare (WHATWG's URL parsing): the scheme and the host in lower case, the
    /// scheme's own port left out (`HTTPS://Example.COM:443/` → `https://example.com/`), and
    /// ASCII (URIs are): a host that is not ASCII in its IDNA form (`https://例え.jp/` →
    /// `https://xn--r8jz45g.jp/`), the other bytes that are not percent-encoded (`/café/` →
    /// `/caf%C3%A9/`). `address` passed `URLRules.siteAddressProblem`:
    /// `scheme://authority/path`, the authority without `@`, a port a number from 1 to 65535.
    static func canonical(_ address: String) throws(Diagnostic) -> String {
        guard let schemeEnd = address.range(of: "://") else { return address }
        let scheme = address[..<schemeEnd.lowerBound].lowercased()
        let rest = address[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        var host = authority
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...])
        }
        var result = scheme + "://"
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            result += host.lowercased()
        } else {
            guard let ascii = DomainName.ascii(String(host)) else {
                throw Diagnostic("base URL \"\(address)\" has the host \"\(host)\", which has no ASCII form (IDNA): write the host as your domain registrar shows it")
            }
            result += ascii.lowercased()
        }
        if let port, port != (scheme == "https" ? 443 : 80) { result += ":\(port)" }
        for byte in rest[authority.endIndex...].utf8 {
            result += byte < 0x80 ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true)
        }
        return result
    }

    /// `/alice/` for the path `alice/` (`/mysite/alice/` under a folder): the link a page uses.
    public func path(_ relative: String) -> String { root + relative }

    /// `https://example.com/alice/` for `alice/`.
    public func absolute(_ relative: String) -> String { baseURL + relative }
}
