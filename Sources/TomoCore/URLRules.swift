/// The addresses a page may link to: `http`, `https` and `mailto` only, so no
/// `javascript:`, `data:` or relative URL from a content file ever reaches a page.
public enum URLRules {
    /// The schemes a page may link to (lower case).
    public static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The scheme of `address`, lower case, or nil when it has none (`/about/`, `#top`,
    /// `notes/a:b.html`): letters, digits, `+`, `-` and `.` after a letter, before the first `:`.
    public static func scheme(of address: String) -> String? {
        guard let colon = address.firstIndex(of: ":") else { return nil }
        return scheme(String(address[..<colon]))
    }

    /// Why `text` may not be used as a link, with the fix; nil when it may. An http(s) address
    /// is held to what a page's `href` may hold raw (the checks `siteAddressProblem` makes too),
    /// so that no accepted link makes a page invalid HTML: a host or IPv6 host, a port from 1
    /// to 65535, `%` only before two hex digits, no space, control character or `"<>\\^`{|}`.
    /// Unlike the site's own address, a link may have a query, a fragment and a user name.
    public static func linkProblem(_ text: String) -> String? {
        let quoted = text.quotedValue
        if let problem = characterProblem(text, quoted: quoted) { return problem }
        guard let scheme = scheme(of: text), let colon = text.firstIndex(of: ":") else {
            if text.hasPrefix("/") || text.hasPrefix(".") {
                return "\(quoted) is a relative address: write the full URL, starting with https://"
            }
            let hint = text.contains("@") && !text.contains("/") ? "mailto:\(text)" : "https://\(text)"
            return "\(quoted) is not an absolute URL: start it with https:// or mailto: (e.g. \(hint.quotedValue))"
        }
        guard allowedSchemes.contains(scheme) else {
            // A misspelt allowed scheme (`htps:`, `htttp:`) is told as the typo it is.
            return "URL scheme \"\(scheme):\" is not allowed: use an http, https or mailto URL" + Suggestion.hint(for: scheme, in: allowedSchemes.sorted())
        }
        if scheme == "mailto" {
            let address = text[text.index(after: colon)...]
            return isEmailAddress(String(address.prefix { $0 != "?" })) ? nil : "\(quoted) needs an e-mail address after mailto:"
        }
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { return "\(quoted) is not a valid URL: it needs a host, like \(scheme)://example.com/" }
        let rest = afterScheme.dropFirst(2)
        let authority = rest.prefix { !"/?#".contains($0) }
        // user:password@host:port: the host and port are what follows the last @.
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if hostAndPort.isEmpty || hostAndPort.hasPrefix(":") {
            return "\(quoted) is not a valid URL: it needs a host, like \(scheme)://example.com/"
        }
        return hostAndPortProblem(hostAndPort, quoted: quoted) ?? escapeProblem(rest[authority.endIndex...], quoted: quoted)
    }

    /// Why `text` cannot be the site's own address (`baseURL`, `--base-url`), which every
    /// canonical URL, feed and the sitemap start with; nil when it can. It must be
    /// `http(s)://host[:port][/path]`: no user name or password (every page would publish
    /// them), no query or fragment (pasted before every path, they would swallow it), no `.`
    /// or `..` folder (each page's address would name another place than the one it is at),
    /// what `linkProblem` asks of any link, and at most `siteAddressByteLimit` bytes.
    public static func siteAddressProblem(_ text: String) -> String? {
        let quoted = text.quotedValue
        if let problem = characterProblem(text, quoted: quoted) { return problem }
        if let problem = lengthProblem(text) { return problem }
        let lowered = text.lowercased()
        guard let schemeEnd = lowered.range(of: "://"), ["http", "https"].contains(String(lowered[..<schemeEnd.lowerBound])) else {
            if text.hasPrefix("/") || text.hasPrefix(".") { return "\(quoted) is a relative address: write the full URL, starting with https://" }
            return "\(quoted) must be an http or https address, like https://example.com/"
        }
        let rest = text[schemeEnd.upperBound...]
        if rest.contains("?") { return "\(quoted) has a query (?…): the site's address is a host and maybe a folder, like https://example.com/blog/" }
        if rest.contains("#") { return "\(quoted) has a fragment (#…): the site's address is a host and maybe a folder, like https://example.com/blog/" }
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") { return "\(quoted) holds a user name or password (before @): remove it, every page would show it" }
        if authority.isEmpty || authority.hasPrefix(":") { return "\(quoted) needs a host, like https://example.com/" }
        if let problem = hostAndPortProblem(authority, quoted: quoted) { return problem }
        let path = rest[authority.endIndex...]
        if path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) {
            return "\(quoted) has a . or .. folder in its path: write the folder it leads to, like https://example.com/blog/"
        }
        return escapeProblem(path, quoted: quoted)
    }

    /// The longest site address, in UTF-8 bytes with its final `/` (added when missing, so an
    /// address read is the address checked again): every profile's `qr.svg` is a QR code of its
    /// address (the base URL with its final `/`, a handle of up to 30 characters and `/`), and
    /// the largest code holds 2,331 bytes (`QRCode.byteLimit`, version 40 at level M). Checked
    /// with the address, so a long one is an error at `baseURL` (or `--base-url`) before any
    /// file is written, never a failed QR code of whichever profile the build made first.
    public static let siteAddressByteLimit = 2331 - 30 - 1

    private static func lengthProblem(_ text: String) -> String? {
        let bytes = text.utf8.count
        guard bytes + (text.hasSuffix("/") ? 0 : 1) > siteAddressByteLimit else { return nil }
        return "is \(bytes) bytes long, and a profile's address (this, a handle and /) must fit in a QR code: "
            + "write an address of at most \(siteAddressByteLimit) bytes, its final / included"
    }

    /// A character no address may hold raw: a space, a control character or noncharacter, or
    /// one of `"<>\\^`{|}`.
    private static func characterProblem(_ text: String, quoted: String) -> String? {
        // U+FEFF too: not Unicode's white space, but JSON Schema's (ECMAScript's `\s`), and as
        // invisible in an address.
        guard let bad = text.unicodeScalars.first(where: { $0.properties.isWhitespace || $0 == "\u{FEFF}" || ForbiddenCharacters.contains($0) || notInAddressesRaw.contains($0) }) else { return nil }
        let what = if bad == " " {
            "a space"
        } else if bad.value < 0x20 || (0x7F...0x9F).contains(bad.value) || ForbiddenCharacters.contains(bad) {
            ForbiddenCharacters.describe(bad)
        } else if bad.properties.isWhitespace || bad == "\u{FEFF}" {
            "the space character \(ForbiddenCharacters.code(bad))"
        } else {
            "the character \(Character(bad))"
        }
        return "\(quoted) holds \(what): write the address without it (a space in a path is %20)"
    }

    private static let notInAddressesRaw = Set("\"<>\\^`{|}".unicodeScalars)

    /// `host`, `host:port`, `[v6]` or `[v6]:port`: a domain name or an IP address, and a port
    /// from 1 to 65535.
    private static func hostAndPortProblem(_ authority: Substring, quoted: String) -> String? {
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "\(quoted) has an IPv6 host without its closing ]" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "\(quoted) has text after its IPv6 host: write a port as [::1]:8080" }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else {
                return "\(quoted) has an IPv6 host that is not one, like [::1]"
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            if host.hasPrefix(".") || host.contains("..") || host.contains(where: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) {
                return "\(quoted) has a host that is not a domain name or an IP address, like example.com or 127.0.0.1"
            }
            if endsInANumber(host), !isDottedQuad(host) {
                return "\(quoted) has a host that ends in a number, which browsers read as an IPv4 address, and it is not one written in full (four numbers from 0 to 255, like 192.0.2.1)"
            }
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65_535).contains(number) else {
                return "\(quoted) has the port \(port.quotedValue), which is not a number from 1 to 65535"
            }
        }
        return nil
    }

    /// Whether the host's last label (before one final `.`) is a number, as the URL standard
    /// reads it (`123`, `0x1F`): then browsers read the whole host as an IPv4 address, and
    /// refuse it when it is not one (`1.2.3.999`, `example.123`).
    private static func endsInANumber(_ host: Substring) -> Bool {
        let labels = (host.hasSuffix(".") ? host.dropLast() : host).split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lower = last.lowercased()
        return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// `192.0.2.1`: four decimal numbers from 0 to 255, without leading zeros.
    private static func isDottedQuad(_ host: Substring) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
                && (part.count == 1 || part.first != "0") && (Int(part) ?? 256) <= 255
        }
    }

    /// A `%` in `part` that is not followed by two hex digits.
    private static func escapeProblem(_ part: Substring, quoted: String) -> String? {
        var index = part.startIndex
        while let percent = part[index...].firstIndex(of: "%") {
            let digits = part[part.index(after: percent)...].prefix(2)
            guard digits.count == 2, digits.allSatisfy(\.isHexDigit) else {
                return "\(quoted) has a % that is not followed by two hex digits: write % itself as %25"
            }
            index = digits.endIndex
        }
        return nil
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
