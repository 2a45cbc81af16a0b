import Foundation
import TomoCore

/// Profiles and posts in `ByteWriter`'s binary form, for `ParsedFiles`: every field, so that
/// what is read back is equal (`==`) to what was parsed. A field added to `Post` or `Profile`
/// must be added here too; `ContentCodingTests` compares every profile and post of the demo
/// and edge-case sites after a round trip.
extension ByteWriter {
    mutating func write(_ post: Post) {
        write(post.handle)
        write(post.slug)
        write(post.file)
        write(post.photo)
        write(post.date.timeIntervalSinceReferenceDate)
        write(post.dateText)
        write(post.utcOffset)
        write(post.alt) { $0.write($1) }
        write(post.visibility.rawValue)
        write(post.draft)
        write(post.caption.markdown)
        write(post.caption.html)
        write(post.caption.firstLine)
        write(post.photoAt) { $0.write($1) }
    }

    mutating func write(_ profile: Profile) {
        write(profile.handle)
        write(profile.file)
        write(profile.name)
        write(profile.bio) { writer, bio in
            writer.write(bio.markdown)
            writer.write(bio.html)
            writer.write(bio.summary)
            writer.write(bio.plainText)
        }
        write(profile.icon) { $0.write($1) }
        write(profile.header) { $0.write($1) }
        write(profile.links) { writer, link in
            writer.write(link.service?.key) { $0.write($1) }
            writer.write(link.label)
            writer.write(link.url)
            writer.write(link.icon) { $0.write($1) }
            writer.write(link.iconAt) { $0.write($1) }
        }
        write(profile.items) { writer, item in
            writer.write(item.text)
            writer.write(item.url) { $0.write($1) }
            writer.write(item.color)
            writer.write(item.hidden)
            writer.write(item.icon) { $0.write($1) }
            writer.write(item.iconAt) { $0.write($1) }
            writer.write(item.from) { $0.write($1.timeIntervalSinceReferenceDate) }
            writer.write(item.until) { $0.write($1.timeIntervalSinceReferenceDate) }
        }
        write(profile.itemColor)
        write(profile.email) { $0.write($1) }
        write(profile.showEmail)
        write(profile.iconAt) { $0.write($1) }
        write(profile.headerAt) { $0.write($1) }
        write(profile.language?.text) { $0.write($1) }
        let look = profile.look
        write(look.accent) { $0.write($1) }
        write(look.background) { writer, backdrop in
            writer.write(backdrop.start)
            writer.write(backdrop.end)
        }
        write(look.font?.rawValue) { $0.write($1) }
        write(look.buttons?.rawValue) { $0.write($1) }
    }

    mutating func write(_ color: ItemColor) {
        write(color.name) { $0.write($1) }
        write(color.red)
        write(color.green)
        write(color.blue)
    }
}

extension ByteReader {
    mutating func post() throws(Malformed) -> Post {
        let handle = try string(), slug = try string(), file = try string(), photo = try string()
        let date = Date(timeIntervalSinceReferenceDate: try double())
        let dateText = try string(), utcOffset = try int()
        let alt = try optional { reader throws(Malformed) in try reader.string() }
        guard let visibility = Post.Visibility(rawValue: try string()) else { throw Malformed() }
        let draft = try bool()
        let caption = Post.Caption(markdown: try string(), html: try string(), firstLine: try string())
        let photoAt = try optional { reader throws(Malformed) in try reader.location() }
        return Post(
            handle: handle, slug: slug, file: file, photo: photo, date: date, dateText: dateText, utcOffset: utcOffset,
            alt: alt, visibility: visibility, draft: draft, caption: caption, photoAt: photoAt
        )
    }

    mutating func profile() throws(Malformed) -> Profile {
        let handle = try string(), file = try string(), name = try string()
        let bio = try optional { reader throws(Malformed) in
            Profile.Bio(markdown: try reader.string(), html: try reader.string(), summary: try reader.string(), plainText: try reader.string())
        }
        let icon = try optionalString(), header = try optionalString()
        let links = try array { reader throws(Malformed) in
            var service: LinkService?
            if let key = try reader.optionalString() {
                guard let known = LinkService(key: key) else { throw Malformed() }
                service = known
            }
            return ProfileLink(
                service: service, label: try reader.string(), url: try reader.string(),
                icon: try reader.optionalString(), iconAt: try reader.optionalLocation()
            )
        }
        let items = try array { reader throws(Malformed) in
            ProfileItem(
                text: try reader.string(), url: try reader.optionalString(), color: try reader.color(), hidden: try reader.bool(),
                icon: try reader.optionalString(), iconAt: try reader.optionalLocation(),
                from: try reader.optionalDate(), until: try reader.optionalDate()
            )
        }
        let itemColor = try color()
        let email = try optionalString(), showEmail = try bool()
        let iconAt = try optionalLocation(), headerAt = try optionalLocation()
        var language: LanguageTag?
        if let tag = try optionalString() {
            guard let known = LanguageTag(tag) else { throw Malformed() }
            language = known
        }
        let accent = try optional { reader throws(Malformed) in try reader.color() }
        let background = try optional { reader throws(Malformed) in Backdrop(from: try reader.color(), to: try reader.color()) }
        let font = try optionalString().map { text throws(Malformed) in
            guard let font = Look.Font(rawValue: text) else { throw Malformed() }
            return font
        }
        let buttons = try optionalString().map { text throws(Malformed) in
            guard let buttons = Look.Buttons(rawValue: text) else { throw Malformed() }
            return buttons
        }
        return Profile(
            handle: handle, file: file, name: name, bio: bio, icon: icon, header: header, links: links, items: items,
            itemColor: itemColor, email: email, showEmail: showEmail, iconAt: iconAt, headerAt: headerAt, language: language,
            look: Look(accent: accent, background: background, font: font, buttons: buttons)
        )
    }

    mutating func color() throws(Malformed) -> ItemColor {
        ItemColor(name: try optionalString(), red: try byte(), green: try byte(), blue: try byte())
    }

    fileprivate mutating func optionalString() throws(Malformed) -> String? {
        try optional { reader throws(Malformed) in try reader.string() }
    }

    fileprivate mutating func optionalLocation() throws(Malformed) -> SourceLocation? {
        try optional { reader throws(Malformed) in try reader.location() }
    }

    fileprivate mutating func optionalDate() throws(Malformed) -> Date? {
        try optional { reader throws(Malformed) in Date(timeIntervalSinceReferenceDate: try reader.double()) }
    }
}
