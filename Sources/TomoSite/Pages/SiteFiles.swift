import TomoContent
import TomoCore

/// The site-wide files that are data rather than pages: the sitemap, `robots.txt` and the search
/// index.
enum SiteFiles {
    /// `/robots.txt`: everything may be crawled, and the sitemap is at its absolute URL (the
    /// protocol wants one, with the base path of a site hosted under a path).
    static func robots(address: SiteAddress) -> [UInt8] {
        Array("User-agent: *\nAllow: /\nSitemap: \(address.absolute("sitemap.xml"))\n".utf8)
    }

    /// `/search.json`: every user's handle, name, summary, icon and page (newest first), for the
    /// home page's search box, whose results look like the user cards: the users' entries
    /// (`searchEntry`) in a list. A display-name edit in `tomo serve` writes this file again; the
    /// entries of the users it did not change are taken over from the last rebuild
    /// (`PageViews.searchEntry`): making all 10,000 again was a fifth of such a rebuild.
    static func searchIndex(_ entries: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(entries.reduce(16) { $0 + $1.count + 1 })
        output.append(contentsOf: #"{"users":["#.utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: entry)
        }
        output.append(contentsOf: "]}\n".utf8)
        return output
    }

    /// One user's object in `search.json`, written straight to bytes (keys in sorted order, as
    /// `JSONWriter` would): building the index as a `JSONValue` first was a tenth of a rebuild.
    static func searchEntry(_ user: UserCard, language: LanguageTag, address: SiteAddress) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(user.icon == nil ? 128 : 512)
        output.append(contentsOf: #"{"handle":"#.utf8)
        JSONWriter.appendString(user.handle, to: &output)
        // What a result's name and summary are written in (`PageViews.language(of:)`).
        output.append(contentsOf: #","language":"#.utf8)
        JSONWriter.appendString(language.text, to: &output)
        output.append(contentsOf: #","name":"#.utf8)
        JSONWriter.appendString(user.name, to: &output)
        if let summary = user.summary {
            output.append(contentsOf: #","summary":"#.utf8)
            JSONWriter.appendString(summary, to: &output)
        }
        if let icon = user.icon {
            // What the user card's <picture> needs, so a result looks like the card.
            output.append(contentsOf: #","icon":{"height":"#.utf8)
            output.append(contentsOf: String(icon.height).utf8)
            output.append(contentsOf: #","src":"#.utf8)
            JSONWriter.appendString(address.path(icon.path), to: &output)
            output.append(contentsOf: #","srcset":"#.utf8)
            JSONWriter.appendString(PublishedImage.srcset(icon.jpegSources, at: address), to: &output)
            output.append(contentsOf: #","webpSrcset":"#.utf8)
            JSONWriter.appendString(PublishedImage.srcset(icon.webpSources, at: address), to: &output)
            output.append(contentsOf: #","width":"#.utf8)
            output.append(contentsOf: String(icon.width).utf8)
            output.append(UInt8(ascii: "}"))
        }
        output.append(contentsOf: #","url":"#.utf8)
        JSONWriter.appendString(address.path(user.handle + "/"), to: &output)
        output.append(UInt8(ascii: "}"))
        return output
    }
}
