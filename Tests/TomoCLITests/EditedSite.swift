import Foundation
import TomoCore

/// The models `EditSequence` writes a site's files from: what it knows of the site.
extension EditSequence {
    /// What the generator knows of the site: the models it writes files from.
    struct SiteState {
        var config = Config()
        var profiles: [String: Profile] = [:]
        /// Posts by id (`alice/sunset`).
        var posts: [String: Post] = [:]
        var pages: [String: Page] = [:]
        /// Users registered in the store, oldest first.
        var registered: [String] = []
        var hidden: Set<String> = []
        /// Handles a rename left: a later rename may take one back, a new user may register it
        /// (its redirects then stop).
        var renamedAway: [String] = []
    }

    struct Config {
        var title = "Oracle"
        var baseURL = "https://oracle.example/"
        var language = "en"
        var description: String? = "A site edited at random."
        var homeUsers: Int? = 4
        var pageSize: Int? = 2
        var contact: String?
        var widths: [Int]? = [48, 96]
        var disableKinds: [String] = []
        /// The site icon, relative to content/.
        var icon: String?
        var qr = false
        var theme: [ThemeKey] = []

        var text: String {
            var lines = ["title: \(quoted(title))", "baseURL: \(quoted(baseURL))", "language: \(language)"]
            if let description { lines.append("description: \(quoted(description))") }
            if let homeUsers { lines.append("homeUsers: \(homeUsers)") }
            if let pageSize { lines.append("pageSize: \(pageSize)") }
            if let contact { lines.append("contact: \(quoted(contact))") }
            if let widths { lines += ["images:", "  widths: [\(widths.map(String.init).joined(separator: ", "))]"] }
            if !disableKinds.isEmpty { lines.append("disableKinds: [\(disableKinds.joined(separator: ", "))]") }
            if let icon { lines.append("icon: \(quoted(icon))") }
            if qr { lines.append("qr: true") }
            lines += ThemeKey.yamlLines(theme)
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// One key of `theme:` with its colour or word, or the two colours of a gradient.
    struct ThemeKey {
        var key: String
        var values: [String]

        static func yamlLines(_ keys: [ThemeKey]) -> [String] {
            guard !keys.isEmpty else { return [] }
            return ["theme:"] + keys.map { key in
                "  \(key.key): " + (key.values.count == 1 ? quoted(key.values[0]) : "[\(key.values.map(quoted).joined(separator: ", "))]")
            }
        }

        static func json(_ keys: [ThemeKey]) -> JSONValue? {
            guard !keys.isEmpty else { return nil }
            return .object(Dictionary(keys.map { ($0.key, $0.values.count == 1 ? JSONValue.string($0.values[0]) : .array($0.values.map(JSONValue.string))) }) { $1 })
        }
    }

    struct Item {
        var text: String
        var url: String?
        var color: String?
        var hidden = false
        var from: String?
        var until: String?
        /// Relative to `content/users/`.
        var icon: String?
    }

    /// An entry of a `links:` list: a link the profile labels itself.
    struct CustomLink {
        var label: String
        var url: String
        /// Relative to `content/users/`.
        var icon: String?
    }

    struct Profile {
        var name: String
        var bio: String?
        /// Paths relative to `content/users/`.
        var icon: String?
        var header: String?
        var items: [Item] = []
        var itemColor: String?
        var links: [(service: String, url: String)] = []
        /// With any, `links:` is a list: the services' links as `service:` entries, then these.
        var customLinks: [CustomLink] = []
        var email: String?
        var showEmail = false
        var language: String?
        var theme: [ThemeKey] = []
        var json = false

        var fileName: String { json ? "json" : "yaml" }

        var text: String {
            json ? jsonText : yamlText
        }

        private var yamlText: String {
            var lines = ["name: \(quoted(name))"]
            if let bio { lines.append("bio: \(quoted(bio))") }
            if let icon { lines.append("icon: \(quoted(icon))") }
            if let header { lines.append("header: \(quoted(header))") }
            if let itemColor { lines.append("itemColor: \(quoted(itemColor))") }
            if !customLinks.isEmpty {
                lines.append("links:")
                for link in links { lines += ["  - service: \(link.service)", "    url: \(quoted(link.url))"] }
                for link in customLinks {
                    lines += ["  - label: \(quoted(link.label))", "    url: \(quoted(link.url))"]
                    if let icon = link.icon { lines.append("    icon: \(quoted(icon))") }
                }
            } else if !links.isEmpty {
                lines += ["links:"] + links.map { "  \($0.service): \(quoted($0.url))" }
            }
            if !items.isEmpty {
                lines.append("items:")
                for item in items {
                    lines.append("  - text: \(quoted(item.text))")
                    if let url = item.url { lines.append("    url: \(quoted(url))") }
                    if let color = item.color { lines.append("    color: \(quoted(color))") }
                    if item.hidden { lines.append("    hidden: true") }
                    if let from = item.from { lines.append("    from: \(from)") }
                    if let until = item.until { lines.append("    until: \(until)") }
                    if let icon = item.icon { lines.append("    icon: \(quoted(icon))") }
                }
            }
            if let email { lines.append("email: \(quoted(email))") }
            if showEmail { lines.append("showEmail: true") }
            if let language { lines.append("language: \(language)") }
            lines += ThemeKey.yamlLines(theme)
            return lines.joined(separator: "\n") + "\n"
        }

        private var jsonText: String {
            var members: [String: JSONValue] = ["name": .string(name)]
            members["bio"] = bio.map(JSONValue.string)
            members["icon"] = icon.map(JSONValue.string)
            members["header"] = header.map(JSONValue.string)
            members["itemColor"] = itemColor.map(JSONValue.string)
            members["language"] = language.map(JSONValue.string)
            if !customLinks.isEmpty {
                members["links"] = .array(links.map { ["service": .string($0.service), "url": .string($0.url)] } + customLinks.map { link in
                    var fields: [String: JSONValue] = ["label": .string(link.label), "url": .string(link.url)]
                    fields["icon"] = link.icon.map(JSONValue.string)
                    return .object(fields)
                })
            } else if !links.isEmpty {
                members["links"] = .object(Dictionary(links.map { ($0.service, JSONValue.string($0.url)) }) { $1 })
            }
            if !items.isEmpty {
                members["items"] = .array(items.map { item in
                    var fields: [String: JSONValue] = ["text": .string(item.text)]
                    fields["url"] = item.url.map(JSONValue.string)
                    fields["color"] = item.color.map(JSONValue.string)
                    if item.hidden { fields["hidden"] = .bool(true) }
                    fields["from"] = item.from.map(JSONValue.string)
                    fields["until"] = item.until.map(JSONValue.string)
                    fields["icon"] = item.icon.map(JSONValue.string)
                    return .object(fields)
                })
            }
            members["email"] = email.map(JSONValue.string)
            if showEmail { members["showEmail"] = .bool(true) }
            members["theme"] = ThemeKey.json(theme)
            return JSONWriter.string(.object(members)) + "\n"
        }
    }

    struct Post {
        /// The photo's file name in the post's folder.
        var photo: String
        var date: String
        var alt: String?
        var visibility = "public"
        var caption: String

        var text: String {
            var lines = ["---", "photo: \(quoted(photo))", "date: \(date)"]
            if let alt { lines.append("alt: \(quoted(alt))") }
            lines += ["visibility: \(visibility)", "---", caption]
            return lines.joined(separator: "\n") + "\n"
        }
    }

    struct Page {
        var title: String
        var description: String?
        var body: String

        var text: String {
            var lines = ["---", "title: \(quoted(title))"]
            if let description { lines.append("description: \(quoted(description))") }
            lines += ["---", body]
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

/// `text` as a YAML double-quoted scalar (a JSON string is one): any text reads back as it is.
func quoted(_ text: String) -> String {
    JSONWriter.string(.string(text))
}
