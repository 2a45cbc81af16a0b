/// The addresses a page may link to: `http`, `https` and `mailto` only, so no
/// `javascript:`, `data:` or relative URL from a content file ever reaches a page.
public enum URLRules {
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// Why `text` may not be used as a link, with the fix; nil when it may.
    public static func linkProblem(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), let scheme = scheme(String(text[..<colon])) else {
            if text.hasPrefix("/") || text.hasPrefix(".") {
                return "\"\(text)\" is a relative address: write the full URL, starting with https://"
            }
            let hint = text.contains("@") && !text.contains("/") ? "mailto:\(text)" : "https://\(text)"
            return "\"\(text)\" is not an absolute URL: start it with https:// or mailto: (e.g. \"\(hint)\")"
        }
        guard allowedSchemes.contains(scheme) else {
            return "URL scheme \"\(scheme):\" is not allowed: use an http, https or mailto URL"
        }
        if text.contains(where: { $0.isWhitespace }) {
            return "\"\(text)\" contains spaces: write them as %20 or remove them"
        }
        if scheme == "mailto" {
            let address = text[text.index(after: colon)...]
            return isEmailAddress(String(address.prefix { $0 != "?" })) ? nil : "\"\(text)\" needs an e-mail address after mailto:"
        }
        let afterScheme = text[text.index(after: colon)...]
        let authority = afterScheme.hasPrefix("//") ? afterScheme.dropFirst(2).prefix { !"/?#".contains($0) } : ""
        // user:password@host:port: the host is what stays after removing the two ends.
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : hostAndPort.prefix { $0 != ":" }
        return host.isEmpty ? "\"\(text)\" is not a valid URL: it needs a host, like \(scheme)://example.com/" : nil
    }

    /// An absolute http or https address such as `baseURL`; nil when it is one.
    public static func webAddressProblem(_ text: String) -> String? {
        if let problem = linkProblem(text) { return problem }
        return text.lowercased().hasPrefix("mailto:") ? "\"\(text)\" must be an http or https URL" : nil
    }

    /// A plausible e-mail address: one `@`, something before it, a dotted domain of letters,
    /// digits and hyphens after it, and none of the characters that would change what a
    /// `mailto:` URL made of it means (`?` a query, `#` a fragment, `%` an escape, `,` a second
    /// recipient, `:` a scheme: `mailto:a@b.example` is a URL, not an address).
    public static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty,
              !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control || notInAddresses.contains($0) })
        else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { label in
            !label.isEmpty && label.unicodeScalars.allSatisfy { $0 == "-" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }
    }

    private static let notInAddresses = Set("<>()[]\\,;:\"?#%".unicodeScalars)

    /// The one rule for an e-mail value in a content file (a profile's `links.email` and
    /// `email`, the site's `contact`): a bare address or a `mailto:` URL of one, without a query.
    /// The bare address, or nil when it is neither.
    public static func emailAddress(_ text: String) -> String? {
        let address = text.lowercased().hasPrefix("mailto:") ? String(text.dropFirst("mailto:".count)) : text
        return isEmailAddress(address) ? address : nil
    }

    /// The link to write to an address `emailAddress` accepted.
    public static func mailtoURL(_ address: String) -> String {
        "mailto:" + address
    }

    /// The lower-cased scheme when `text` is a syntactically valid one (`[A-Za-z][A-Za-z0-9+.-]*`).
    private static func scheme(_ text: String) -> String? {
        guard let first = text.unicodeScalars.first, first.isASCIILetter,
              text.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return text.lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
