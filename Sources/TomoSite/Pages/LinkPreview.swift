import TomoContent
import TomoCore

/// The image a page's link preview shows (`og:image`), and the Twitter card its shape fits.
struct PreviewImage: Sendable, Hashable {
    /// Its path in the site (`media/alice/header-3fa01c9e-1280.jpg`, `static/preview.png`).
    var path: String
    /// The real pixel size of that file.
    var width: Int
    var height: Int
    /// What it shows, for `og:image:alt`.
    var alt: String

    /// The theme's image for pages without one of their own (home, free pages, 404, a profile
    /// without icon or header): `templates/static/preview.png`, a PNG.
    static let themePath = "static/preview.png"

    /// `twitter:card`: `summary_large_image` shows the image at 1.91:1, cropping what does not
    /// fit; `summary` shows a small square.
    enum Card: String, Sendable {
        case summary
        case large = "summary_large_image"
    }

    /// The large card's shape, width over height.
    static let largeCardRatio = 1.91
    /// How much of an image the large card must keep when it crops it to its shape.
    static let largeCardKeeps = 0.75

    /// The large card for an image at least 300×157 (the card's minimum) that cropping to 1.91:1
    /// keeps three quarters of (from 1.43:1 to 2.55:1: 3:2 and 16:9 photos, not a 1280×400
    /// header, a square icon or a portrait photo); the small card otherwise.
    var card: Card {
        guard width >= 300, height >= 157 else { return .summary }
        let ratio = Double(width) / Double(height)
        let fits = Self.largeCardRatio * Self.largeCardKeeps ... Self.largeCardRatio / Self.largeCardKeeps
        return fits.contains(ratio) ? .large : .summary
    }

    /// The longest `og:image:alt` and `twitter:image:alt`: X's limit for the card's alt text.
    /// A longer one (a card's text is the bio's first line, which may be a whole bio) is
    /// shortened at a word.
    static let altLength = 420

    /// `{url, width, height, alt}` for the layout's `og:image` tags.
    func view(_ address: SiteAddress) -> JSONValue {
        ["url": .string(address.absolute(path)), "width": .int(width), "height": .int(height), "alt": .string(alt.shortened(toAtMost: Self.altLength))]
    }

    /// The pixel size in a PNG's header (its IHDR chunk), nil for bytes that are not a PNG.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let number = { (start: Int) in bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = number(16), height = number(20)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }
}

extension PreviewImage {
    /// The widest JPEG of a published image (the file `PublishedImage.path` names).
    init(_ image: PublishedImage, alt: String) {
        self.init(path: image.path, width: image.width, height: image.height, alt: alt)
    }
}

/// Structured data for a `<script type="application/ld+json">` element.
enum ScriptJSON {
    /// `value` as compact JSON that cannot end the script element or change how it is parsed:
    /// `<`, `>` and `&` (so no `</script>` or `<!--` from user text) and U+2028/U+2029 (line
    /// ends to old JavaScript parsers) are written as `\u` escapes, which mean the same in
    /// JSON. They only ever occur inside strings, where an escape is valid.
    static func text(_ value: JSONValue) -> String {
        var json: [UInt8] = []
        JSONWriter.append(value, to: &json, style: .compact)
        // On the UTF-8 bytes: U+2028 and U+2029 are E2 80 A8 and E2 80 A9, and no other
        // character's bytes contain those three in a row.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(json.count + 32)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): escaped.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): escaped.append(contentsOf: #"\u0026"#.utf8)
            case 0xE2 where index + 2 < json.count && json[index + 1] == 0x80 && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                escaped.append(contentsOf: (json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 2
            default: escaped.append(byte)
            }
            index += 1
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// A schema.org object at the top of a script element: `thing` with its `@context`.
    static func schema(_ type: String, _ members: [String: JSONValue?]) -> JSONValue {
        thing(type, members.merging(["@context": .string("https://schema.org")]) { _, context in context })
    }

    /// A nested schema.org object (no `@context`), empty members left out.
    static func thing(_ type: String, _ members: [String: JSONValue?]) -> JSONValue {
        var fields: [String: JSONValue] = ["@type": .string(type)]
        for (key, value) in members {
            switch value {
            case nil, .null?, .string("")?, .array([])?: continue
            case let value?: fields[key] = value
            }
        }
        return .object(fields)
    }
}

/// The fediverse account a Mastodon profile link names, for `<meta name="fediverse:creator">`.
enum FediverseAccount {
    /// `@user@instance` for the URL form Mastodon shows (`https://instance/@user`, a final `/`
    /// allowed); nil for any other form (a remote account `https://a/@user@b`, a port, a query).
    static func handle(profileURL url: String) -> String? {
        guard let scheme = ["https://", "http://"].first(where: { url.lowercased().hasPrefix($0) }) else { return nil }
        let rest = url.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let host = rest[..<slash].lowercased()
        var path = rest[slash...]
        if path.hasSuffix("/") { path = path.dropLast() }
        guard path.hasPrefix("/@") else { return nil }
        let user = path.dropFirst(2)
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
        let userCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
        guard host.contains("."), !host.hasPrefix("."), !host.hasSuffix("."), host.allSatisfy(hostCharacters.contains),
              !user.isEmpty, user.allSatisfy(userCharacters.contains) else { return nil }
        return "@\(user)@\(host)"
    }

    /// The account of a profile's Mastodon link, if it has one in that form.
    static func handle(of links: [ProfileLink]) -> String? {
        links.first { $0.service == .mastodon }.flatMap { handle(profileURL: $0.url) }
    }
}

extension PageViews {
    /// A user's icon as the preview of their pages.
    func iconPreview(_ card: UserCard, labels: Labels) -> PreviewImage? {
        card.icon.map { PreviewImage($0, alt: labels.isolatingText("iconOf", name: card.name).description) }
    }

    /// A user as schema.org's `Person`: name, `@handle`, profile URL.
    func personLD(_ card: UserCard, members: [String: JSONValue?] = [:]) -> JSONValue {
        ScriptJSON.thing("Person", [
            "name": .string(card.name),
            "alternateName": .string("@" + card.handle),
            "url": .string(address.absolute(card.handle + "/")),
        ].merging(members) { _, own in own })
    }
}
