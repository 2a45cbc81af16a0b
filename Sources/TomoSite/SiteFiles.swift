import TomoContent
import TomoCore

/// The site-wide files that are data rather than pages: the sitemap and the search index.
enum SiteFiles {
    /// `/sitemap.xml`: the home page, every profile, every free page and every published post,
    /// with absolute URLs.
    static func sitemap(content: SiteContent, postPaths: [String], address: SiteAddress) -> [UInt8] {
        var paths = [""]
        paths += content.profiles.map { $0.handle + "/" }
        paths += content.pages.map { $0.name + "/" }
        paths += postPaths
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in paths {
            xml += "  <url><loc>\(escapeMarkup(address.absolute(path)))</loc></url>\n"
        }
        xml += "</urlset>\n"
        return Array(xml.utf8)
    }

    /// `/search.json`: every user's handle, name and page, for the home page's search box.
    static func searchIndex(newestFirst profiles: [Profile], address: SiteAddress) -> [UInt8] {
        let users: [JSONValue] = profiles.map { profile in
            ["handle": .string(profile.handle), "name": .string(profile.name), "url": .string(address.path(profile.handle + "/"))]
        }
        var output: [UInt8] = []
        JSONWriter.append(["users": .array(users)], to: &output, style: .compact)
        output.append(0x0A)
        return output
    }

    /// `text` safe inside XML or HTML text and attribute values.
    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
