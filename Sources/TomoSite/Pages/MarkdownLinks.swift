import Foundation
import TomoCore

/// The addresses of the HTML a bio, a caption or a free page renders to (`href` and `src`
/// attributes, all libcmark's own: raw HTML is never rendered, so no other text holds
/// `href="`), put where the page or feed that shows them needs them: a root-relative address
/// (`/about/`) under the site's path (`https://example.com/s/` has it at `/s/about/`), and in a
/// feed every relative address made absolute against the post's own page, as a feed reader
/// reads entries apart from the page.
enum MarkdownLinks {
    /// `html` with each address that starts with one `/` under `address.root`.
    static func underRoot(_ html: String, address: SiteAddress) -> String {
        guard address.root != "/" else { return html }
        return rewritingAddresses(in: html) { value in
            guard value.hasPrefix("/"), !value.hasPrefix("//") else { return nil }
            return address.root + value.dropFirst()
        }
    }

    /// `html` with each address that has no scheme resolved against `page`, an absolute address
    /// (root-relative ones under the site's path first).
    static func absolute(_ html: String, page: String, address: SiteAddress) -> String {
        guard let base = URL(string: page) else { return html }
        return rewritingAddresses(in: html) { value in
            guard URLRules.scheme(of: value) == nil else { return nil }
            let rooted = value.hasPrefix("/") && !value.hasPrefix("//") ? address.root + value.dropFirst() : value
            return URL(string: rooted, relativeTo: base)?.absoluteString
        }
    }

    /// `html` with the value of each `href="…"` and `src="…"` replaced by what `transform`
    /// makes of it (unescaped; nil keeps it), escaped again.
    private static func rewritingAddresses(in html: String, _ transform: (String) -> String?) -> String {
        guard html.contains(" href=\"") || html.contains(" src=\"") else { return html }
        var output = ""
        output.reserveCapacity(html.utf8.count + 64)
        var rest = html[...]
        while let valueStart = nextValue(in: rest) {
            output += rest[..<valueStart]
            rest = rest[valueStart...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let written = rest[..<end]
            let replaced = transform(MarkupText.unescaped(String(written))).map(MarkupText.escaped)
            output += replaced ?? String(written)
            rest = rest[end...]
        }
        output += rest
        return output
    }

    /// Where the value of the next ` href="` or ` src="` in `text` starts.
    private static func nextValue(in text: Substring) -> Substring.Index? {
        [" href=\"", " src=\""].compactMap { text.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }?.upperBound
    }
}
