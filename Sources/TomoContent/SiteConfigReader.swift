import Foundation
import TomoCore
import TomoYAML

/// Validates the parsed `content/site.yaml` into a `SiteConfig`.
enum SiteConfigReader {
    static let homeUsersRange = 1...100_000
    static let pageSizeRange = 1...1_000
    static let imageWidthRange = 16...8_192

    static let imagesTable = KeyTable("images", [
        KeySpec("widths", .list(.wholeNumber(imageWidthRange), minItems: 1), "Widths in pixels of the resized copies of every photo, icon and header.", default: .array(SiteConfig.defaultImageWidths.map { .int($0) })),
    ])

    /// The keys of site.yaml.
    static let table = KeyTable("site.yaml", [
        KeySpec("title", .nonBlankText, "The site's name, in every page's title and header.", required: true),
        KeySpec("baseURL", .siteAddress, "The site's absolute http(s) address, for feeds, the sitemap and Open Graph (e.g. https://example.com/)."),
        KeySpec("language", .languageTag, "The site's language, a BCP 47 tag (en, ja, zh-Hans, pt-BR): of the theme's labels, dates and every page's lang.", default: .string(LanguageTag.english.text)),
        KeySpec("description", .text, "One sentence about the site, for the home page's description."),
        KeySpec("homeUsers", .wholeNumber(homeUsersRange), "How many of the newest users the home page lists.", default: .int(SiteConfig.defaultHomeUsers)),
        KeySpec("pageSize", .wholeNumber(pageSizeRange), "Posts per timeline page.", default: .int(SiteConfig.defaultPageSize)),
        KeySpec("contact", .email, "The site's contact e-mail address."),
        KeySpec("images", .mapping(imagesTable), "How images are resized."),
        KeySpec("disableKinds", .list(.word(SiteConfig.PageKind.allCases.map(\.rawValue)), minItems: 0), "Page kinds not to publish.", default: .array([])),
        KeySpec("icon", .file(extensions: []), "The site icon, relative to content/ (default: the theme's)."),
        KeySpec("qr", .boolean, "Shows each profile's QR code (its /<handle>/qr.svg) on its page.", default: .bool(false)),
        KeySpec("params", .anyMapping, "A custom theme's own settings, handed to templates as site.params unchecked."),
        KeySpec("theme", .mapping(LookReader.table), "The look of every profile page: accent, background, font, buttons (a profile's own theme overrides it key by key)."),
    ])

    /// The settings, or nil when an error makes them unusable; problems go to `reader`.
    /// `content` is the folder the site icon's path is relative to.
    static func read(_ root: YAMLNode, reader: NodeReader, content: URL) -> SiteConfig? {
        guard let fields = reader.fields(of: root, table: table) else { return nil }
        let title = reader.string(fields, "title", required: "My profiles")
        var config = SiteConfig(title: title ?? "")
        config.description = reader.string(fields, "description")
        config.baseURL = baseURL(fields, reader: reader)
        config.baseURLAt = fields["baseURL"]?.location
        if fields["baseURL"] == nil { config.baseURLMissingAt = fields.location }
        config.language = reader.languageTag(fields, "language") ?? .english
        config.homeUsers = reader.int(fields, "homeUsers", in: homeUsersRange) ?? SiteConfig.defaultHomeUsers
        config.pageSize = reader.int(fields, "pageSize", in: pageSizeRange) ?? SiteConfig.defaultPageSize
        if let contact = reader.string(fields, "contact"), let node = fields["contact"] {
            if let address = URLRules.emailAddress(contact) {
                config.contact = address
            } else {
                reader.error(ProfileReader.notAnAddress(contact, key: "contact"), at: node.location)
            }
        }
        if let images = reader.value(fields, "images"), let imageFields = reader.fields(of: images, table: imagesTable) {
            config.imageWidths = imageWidths(imageFields, reader: reader)
        }
        config.disabledKinds = disabledKinds(fields, reader: reader)
        config.qr = reader.bool(fields, "qr") ?? false
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
        config.look = LookReader.read(fields, reader: reader)
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
                reader.error("unknown page kind \(name.quotedValue)\(hint): disableKinds takes \(names.joined(separator: ", "))", at: element.location)
            }
        }
        return kinds
    }

    private static func baseURL(_ fields: Fields, reader: NodeReader) -> String? {
        guard let text = reader.string(fields, "baseURL"), let node = fields["baseURL"] else {
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
        let widths = elements.compactMap { reader.int($0, named: "an image width", in: imageWidthRange) }
        return Array(Set(widths)).sorted()
    }
}
