import Foundation
import TomoCore
import TomoMarkdown
import TomoYAML

/// Validates one parsed profile file into a `Profile`.
struct ProfileReader {
    static let itemTable = KeyTable("an item", [
        KeySpec("text", .text, "What the item says (with `url`, the link's text).", required: true),
        KeySpec("url", .link, "Makes the item a link: an http, https or mailto URL."),
        KeySpec("color", .color, "The item's background: a colour name or \"#rrggbb\" (default: the profile's itemColor)."),
        KeySpec("hidden", .boolean, "Keeps the item off the page.", default: .bool(false)),
        KeySpec("from", .date, "Shows the item from this date on (2026-05-01 or 2026-05-01T18:30:00+09:00)."),
        KeySpec("until", .date, "Shows the item until this date (a bare day includes all of it)."),
        KeySpec("icon", .file(extensions: ContentPath.photoExtensions), "An image shown before the text, relative to content/users/ (e.g. alice/shop.png)."),
    ])

    /// One key per service (the theme's own and every Simple Icons brand); `email` takes an
    /// address, the others a URL.
    static let linksTable = KeyTable("links", LinkService.keys.map { key in
        LinkService(key: key) == .email
            ? KeySpec(key, .email, "Your e-mail address (or a mailto: URL), published as a link.")
            : KeySpec(key, .link, "Your \(LinkService(key: key)?.label ?? key) address: an http or https URL.")
    }, unknownKeyFix: "links takes a service's Simple Icons slug (discord, twitch, spotify, …, as on simpleicons.org) or one of \(LinkService.builtin.map(\.key).joined(separator: ", ")); for any other link, write links as a list of `- label: My shop` with `url:`")

    /// One entry of a `links:` list: a link the profile labels itself, or a service's link in
    /// the place the list gives it.
    static let linkEntryTable = KeyTable("a link", [
        KeySpec("label", .nonBlankText, "What the link says (default: the service's name)."),
        KeySpec("url", .link, "Where it goes: an http, https or mailto URL.", required: true),
        KeySpec("icon", .file(extensions: ContentPath.photoExtensions), "An image shown before the label, relative to content/users/ (e.g. alice/shop.png)."),
        KeySpec("service", .word(LinkService.keys), "A links key (discord, github, …): shows that service's mark, and its name without a label."),
    ], needsOneOf: ["label", "service"])

    /// The keys of a profile.
    static let table = KeyTable("a profile", [
        KeySpec("name", .nonBlankText, "The display name.", required: true),
        KeySpec("bio", .markdown, "A few words about you, in Markdown."),
        KeySpec("icon", .file(extensions: []), "The profile picture, relative to content/users/ (e.g. alice/icon.jpg)."),
        KeySpec("header", .file(extensions: []), "The wide picture at the top of the profile, relative to content/users/."),
        KeySpec("links", .either([.mapping(linksTable), .list(.mapping(linkEntryTable), minItems: 0)]), "Links to your pages elsewhere: one per service as `service: url`, or a list of `- label:`, `url:` (and `icon:` or `service:`) in the order to show them."),
        KeySpec("items", .list(.mapping(itemTable), minItems: 0), "The profile's list of text and link items.", default: .array([])),
        KeySpec("itemColor", .color, "The background of every item without its own colour: a colour name or \"#rrggbb\".", default: .string(ItemColor.standard.name ?? "black")),
        KeySpec("email", .email, "Your e-mail address, kept private unless showEmail is true."),
        KeySpec("showEmail", .boolean, "Publishes `email` on the profile page.", default: .bool(false)),
        KeySpec("language", .languageTag, "The profile's own language, a BCP 47 tag (default: the site's): its pages' labels, dates and lang, its feed's xml:lang."),
        KeySpec("theme", .mapping(LookReader.table), "The page's look: accent, background, font, buttons (each over site.yaml's theme)."),
    ])

    /// A JSON profile may also name its schema, as JSON files do.
    static let jsonTable = table.adding(KeySpec("$schema", .text, "The JSON Schema this file follows (tomo schema writes it)."))

    let handle: String
    let file: String
    /// `content/users/`, which icon and header paths are relative to.
    let usersFolder: URL
    let reader: NodeReader

    /// The profile, or nil when an error makes it unusable; problems go to `reader`.
    func read(_ root: YAMLNode) -> Profile? {
        guard let fields = reader.fields(of: root, table: file.hasSuffix(".json") ? Self.jsonTable : Self.table) else { return nil }
        let name = reader.string(fields, "name", required: "Alice Example")
        _ = reader.string(fields, "$schema")
        let itemColor = reader.color(fields, "itemColor") ?? .standard
        let icon = image(fields, "icon")
        if fields["icon"] == nil {
            reader.warning("no icon: the page shows a placeholder (add `icon: \(handle)/icon.jpg`)", at: fields.location)
        }
        let email = emailAddress(fields)
        let showEmail = reader.bool(fields, "showEmail") ?? false
        if showEmail, email == nil, let node = fields["showEmail"] {
            reader.warning("showEmail is true but there is no email to show (add `email: you@example.com`)", at: node.location)
        }
        let bio = reader.string(fields, "bio").flatMap { markdown -> (markdown: String, document: Markdown.Document)? in
            guard let node = fields["bio"], let document = reader.readableMarkdown(markdown, named: "the bio", at: node.location) else { return nil }
            return (markdown, document)
        }
        if let email, !showEmail { refusePublishing(privateAddress: email, fields, bio: bio?.document) }
        let profile = Profile(
            handle: handle,
            file: file,
            name: name ?? "",
            bio: bio.map { markdown, document in
                let summary: String = document.firstParagraphPlainText.shortened(toAtMost: Profile.Bio.summaryLength)
                return Profile.Bio(markdown: markdown, html: document.html, summary: summary, plainText: document.plainText)
            },
            icon: icon,
            header: image(fields, "header"),
            links: links(fields),
            items: (reader.list(fields, "items") ?? []).compactMap { item($0, defaultColor: itemColor) },
            itemColor: itemColor,
            email: email,
            showEmail: showEmail,
            iconAt: fields["icon"]?.location,
            headerAt: fields["header"]?.location,
            language: reader.languageTag(fields, "language"),
            look: LookReader.read(fields, reader: reader)
        )
        return reader.hasErrors ? nil : profile
    }

    /// An `email` kept private (no `showEmail: true`) may not be published by another field of
    /// the page: the same address in the name, a link, an item that is not hidden or the bio is an
    /// error there. Published, it would undo what the profile asks for. Each field is looked at
    /// as the page shows it (`PrivateAddress`): the bio's text once its Markdown is rendered
    /// (`hid&#64;example.org`, `hid\@example.org` and `hid@*example*.org` all show the
    /// address). The user's posts are held to the same rule once both are loaded
    /// (`ContentLoadResult`).
    private func refusePublishing(privateAddress address: String, _ fields: Fields, bio: Markdown.Document?) {
        let privateAddress = PrivateAddress(address)
        let shows = privateAddress.isShown(in:)
        func holds(_ node: YAMLNode) -> Bool {
            guard case .scalar(let text, _) = node.kind else { return false }
            return shows(text)
        }
        var places: [SourceLocation] = []
        if let name = fields["name"], holds(name) { places.append(name.location) }
        if let node = fields["bio"], let bio, shows(bio.plainText) || (bio.destinations + bio.titles).contains(where: shows) { places.append(node.location) }
        for pair in fields["links"]?.mapping ?? [] where holds(pair.value) { places.append(pair.value.location) }
        for entry in fields["links"]?.sequence ?? [] {
            for pair in entry.mapping ?? [] where ["label", "url"].contains(pair.key) && holds(pair.value) { places.append(pair.value.location) }
        }
        for item in fields["items"]?.sequence ?? [] {
            let pairs = item.mapping ?? []
            if pairs.contains(where: { $0.key == "hidden" && $0.value.scalar == .bool(true) }) { continue }
            for pair in pairs where ["text", "url"].contains(pair.key) && holds(pair.value) { places.append(pair.value.location) }
        }
        for place in places {
            reader.error("this publishes \(address), which `email:` keeps private (there is no `showEmail: true`): remove it here, or add `showEmail: true` to publish it", at: place)
        }
    }

    private func links(_ fields: Fields) -> [ProfileLink] {
        guard let node = reader.value(fields, "links") else { return [] }
        switch node.kind {
        case .mapping:
            return serviceLinks(node)
        case .sequence(let entries):
            return entries.compactMap(linkEntry)
        default:
            reader.error("expected links as `service: url` lines or a list of `- label: …` with `url: …`, found \(node.typeDescription)", at: node.location)
            return []
        }
    }

    /// `links:` as a mapping: the theme's own services first (in `LinkService` order), then
    /// the brands in file order.
    private func serviceLinks(_ node: YAMLNode) -> [ProfileLink] {
        guard let linkFields = reader.fields(of: node, table: Self.linksTable) else { return [] }
        var found: [ProfileLink] = []
        // File order decides which of `twitter` and `x` is the duplicate.
        for pair in node.mapping ?? [] {
            guard let service = LinkService(key: pair.key), linkFields.pairs[pair.key] != nil,
                  let text = reader.string(linkFields, pair.key) else { continue }
            if found.contains(where: { $0.service == service }) {
                reader.error("\(pair.key.quotedValue) repeats the \(service.label) link: keep only one", at: pair.keyLocation)
                continue
            }
            let checked: String
            if service == .email {
                guard let address = URLRules.emailAddress(text) else {
                    reader.error(Self.notAnAddress(text, key: "email"), at: pair.value.location)
                    continue
                }
                checked = URLRules.mailtoURL(address)
            } else {
                guard let url = checkedURL(text, at: pair.value.location) else { continue }
                checked = url
            }
            found.append(ProfileLink(service: service, label: service.label, url: checked))
        }
        // A stable sort: the brands (no rank) keep their file order after the theme's own.
        return found.enumerated().sorted { left, right in
            (left.element.service?.rank ?? Int.max, left.offset) < (right.element.service?.rank ?? Int.max, right.offset)
        }.map(\.element)
    }

    /// One entry of a `links:` list.
    private func linkEntry(_ node: YAMLNode) -> ProfileLink? {
        guard let fields = reader.fields(of: node, table: Self.linkEntryTable) else { return nil }
        let label = reader.string(fields, "label")
        var service: LinkService?
        if let key = reader.string(fields, "service"), let at = fields["service"]?.location {
            service = LinkService(key: key)
            if service == nil {
                let hint = Suggestion.hint(for: key, in: LinkService.keys)
                reader.error("unknown service \(key.quotedValue)" + (hint.isEmpty ? ": " + (Self.linksTable.unknownKeyFix ?? "") : hint), at: at)
            }
        }
        if fields["label"] == nil, fields["service"] == nil {
            reader.error("a link needs a label: add `label: My shop` (or `service: discord` for a service's mark and name)", at: fields.location)
        }
        if label?.isBlank == true, let at = fields["label"]?.location {
            reader.error("this link's label is empty: write what the link says, like `label: My shop`", at: at)
        }
        let url = reader.string(fields, "url", required: "https://example.com/").flatMap { checkedURL($0, at: fields["url"]?.location ?? fields.location) }
        let icon = image(fields, "icon", photosOnly: true)
        guard let url, let shown = label ?? service?.label else { return nil }
        return ProfileLink(service: service, label: shown, url: url, icon: icon, iconAt: fields["icon"]?.location)
    }

    private func item(_ node: YAMLNode, defaultColor: ItemColor) -> ProfileItem? {
        if case .scalar(let text, _) = node.kind {
            reader.error("an item is a `key: value` block: write `- text: \(text)` (add `url:` on the next line for a link)", at: node.location)
            return nil
        }
        guard let fields = reader.fields(of: node, table: Self.itemTable) else { return nil }
        let url = reader.string(fields, "url").flatMap { checkedURL($0, at: fields["url"]?.location ?? fields.location) }
        let problemsBefore = reader.diagnostics.count
        var text = reader.string(fields, "text")
        // A text that is there but refused (a control character in it) is reported already.
        let refused = reader.diagnostics.count > problemsBefore
        if !refused, text == nil || text?.isBlank == true {
            if let url, fields["text"] != nil {
                reader.warning("this item has a url but empty text: the page shows the address instead", at: fields["text"]?.location ?? fields.location)
                text = url
            } else {
                reader.error("an item needs text: add `text: Hello` (with `url:` it becomes a link)", at: fields["text"]?.location ?? fields.location)
                return nil
            }
        }
        let from = date(fields, "from", ContentDate.start(of:))
        let until = date(fields, "until", ContentDate.end(of:))
        if let from, let until, until <= from, let node = fields["until"] {
            reader.error("\"until\" is not after \"from\": this item would never be shown (give \"until\" a later date than \"from\", or remove one of them)", at: node.location)
        }
        return ProfileItem(
            text: text ?? "",
            url: url,
            color: reader.color(fields, "color") ?? defaultColor,
            hidden: reader.bool(fields, "hidden") ?? false,
            icon: image(fields, "icon", photosOnly: true),
            iconAt: fields["icon"]?.location,
            from: from,
            until: until
        )
    }

    private func date(_ fields: Fields, _ key: String, _ parse: (String) -> Date?) -> Date? {
        guard let text = reader.string(fields, key), let node = fields[key] else { return nil }
        guard let date = parse(text) else {
            reader.error("\(text.quotedValue) is not a date: write \(key) as 2026-05-01 or 2026-05-01T18:30:00+09:00", at: node.location)
            return nil
        }
        return date
    }

    private func emailAddress(_ fields: Fields) -> String? {
        guard let text = reader.string(fields, "email"), let node = fields["email"] else { return nil }
        guard let address = URLRules.emailAddress(text) else {
            reader.error(Self.notAnAddress(text, key: "email"), at: node.location)
            return nil
        }
        return address
    }

    /// The message for an e-mail value `URLRules.emailAddress` refused.
    static func notAnAddress(_ text: String, key: String) -> String {
        "\(text.quotedValue) is not an e-mail address: write it like `\(key): alice@example.com` (or mailto:alice@example.com, without ?subject=…)"
    }

    private func checkedURL(_ text: String, at location: SourceLocation) -> String? {
        if let problem = URLRules.linkProblem(text) {
            reader.error(problem, at: location)
            return nil
        }
        return text
    }

    /// An image path relative to `content/users/`: it must stay inside that folder and exist;
    /// with `photosOnly` (links' and items' icons), have one of the photo extensions.
    private func image(_ fields: Fields, _ key: String, photosOnly: Bool = false) -> String? {
        guard let path = reader.string(fields, key), let node = fields[key] else { return nil }
        if photosOnly, !ContentPath.photoExtensions.contains(ContentPath.fileExtension(of: path).lowercased()) {
            reader.error("\(key) \(path.quotedValue) is not a photo file: use a .\(ContentPath.photoExtensions.joined(separator: ", ."))", at: node.location)
            return nil
        }
        return reader.containedFile(
            path, key: key, at: node.location, in: usersFolder,
            outside: "must stay inside content/users/: use a path like \(handle)/\(key).jpg",
            missing: "put the image at \(ContentPath.userFile(path)) or fix the path"
        )
    }
}
