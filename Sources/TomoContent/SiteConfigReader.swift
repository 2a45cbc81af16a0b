import Foundation
import TomoCore
import TomoYAML

/// Validates the parsed `content/site.yaml` into a `SiteConfig`.
enum SiteConfigReader {
    static let keys = ["title", "baseURL", "language", "description", "homeUsers", "pageSize", "contact", "images", "disableKinds", "icon", "params"]

    /// The settings, or nil when an error makes them unusable; problems go to `reader`.
    /// `content` is the folder the site icon's path is relative to.
    static func read(_ root: YAMLNode, reader: NodeReader, content: URL) -> SiteConfig? {
        guard let fields = reader.fields(of: root, known: keys, what: "site.yaml") else { return nil }
        let title = reader.string(fields, "title", required: "My profiles")
        var config = SiteConfig(title: title ?? "")
        config.description = reader.string(fields, "description")
        config.baseURL = baseURL(fields, reader: reader)
        if let language = reader.string(fields, "language"), let node = fields["language"] {
            if let value = SiteConfig.Language(rawValue: language) {
                config.language = value
            } else {
                reader.error("unknown language \"\(language)\": use en or ja", at: node.location)
            }
        }
        config.homeUsers = reader.int(fields, "homeUsers", in: 1...100_000) ?? SiteConfig.defaultHomeUsers
        config.pageSize = reader.int(fields, "pageSize", in: 1...1_000) ?? SiteConfig.defaultPageSize
        if let contact = reader.string(fields, "contact"), let node = fields["contact"] {
            if let address = URLRules.emailAddress(contact) {
                config.contact = address
            } else {
                reader.error(ProfileReader.notAnAddress(contact, key: "contact"), at: node.location)
            }
        }
        if let images = reader.value(fields, "images"), let imageFields = reader.fields(of: images, known: ["widths"], what: "images") {
            config.imageWidths = imageWidths(imageFields, reader: reader)
        }
        config.disabledKinds = disabledKinds(fields, reader: reader)
        if let path = reader.string(fields, "icon"), let node = fields["icon"] {
            config.icon = reader.containedFile(
                path, key: "icon", at: node.location, in: content,
                outside: "must stay inside content/: use a path like site-icon.png (relative to content/)",
                missing: "put the image at content/\(path) or fix the path"
            )
            config.iconAt = node.location
        }
        if let node = reader.value(fields, "params") {
            config.params = SiteParams.read(node, reader: reader) ?? [:]
        }
        return title == nil ? nil : config
    }

    private static func disabledKinds(_ fields: Fields, reader: NodeReader) -> Set<SiteConfig.PageKind> {
        guard let elements = reader.list(fields, "disableKinds") else { return [] }
        let names = SiteConfig.PageKind.allCases.map(\.rawValue)
        var kinds: Set<SiteConfig.PageKind> = []
        for element in elements {
            guard let name = reader.string(element, named: "a page kind") else { continue }
            if let kind = SiteConfig.PageKind(rawValue: name) {
                kinds.insert(kind)
            } else {
                let hint = Suggestion.hint(for: name, in: names)
                reader.error("unknown page kind \"\(name)\"\(hint): disableKinds takes \(names.joined(separator: ", "))", at: element.location)
            }
        }
        return kinds
    }

    private static func baseURL(_ fields: Fields, reader: NodeReader) -> String? {
        guard let text = reader.string(fields, "baseURL"), let node = fields["baseURL"] else {
            guard fields["baseURL"] == nil else { return nil }
            reader.warning("no baseURL: feeds, the sitemap and Open Graph need the site's address (add `baseURL: https://example.com/`)", at: fields.location)
            return nil
        }
        if let problem = URLRules.siteAddressProblem(text) {
            reader.error("baseURL \(problem)", at: node.location)
            return nil
        }
        return text.hasSuffix("/") ? text : text + "/"
    }

    private static func imageWidths(_ fields: Fields, reader: NodeReader) -> [Int] {
        guard let elements = reader.list(fields, "widths") else { return SiteConfig.defaultImageWidths }
        guard !elements.isEmpty else {
            reader.error("images.widths is empty: list at least one width, e.g. [320, 640, 1280]", at: fields["widths"]?.location ?? fields.location)
            return SiteConfig.defaultImageWidths
        }
        let widths = elements.compactMap { reader.int($0, named: "an image width", in: 16...8_192) }
        return Array(Set(widths)).sorted()
    }
}
