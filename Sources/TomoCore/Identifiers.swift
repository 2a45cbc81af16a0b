import Foundation

/// Handles and slugs become folder names in the output, so they are checked before any path is
/// built from them: only the characters of the design's patterns, never `..` or `/`.
public enum Identifiers {
    /// Names the site needs for its own paths; no handle or free page may take them.
    public static let reservedWords: Set<String> = [
        "posts", "static", "assets", "media", "feed", "search", "index", "404", "sitemap", "tags", "page", "users",
        // The hosts' redirect rules at the output's root (`RedirectPages`).
        "_redirects",
    ]

    /// Why `handle` is not a valid handle, or nil when it is (`^[a-z0-9_]{1,30}$`, not reserved).
    /// The handle is quoted shortened (`quotedShortened`): it is often what someone typed.
    public static func handleProblem(_ handle: String) -> String? {
        if handle.isEmpty { return "a handle cannot be empty" }
        // The characters first: a length counted in bytes is only right for a-z, 0-9 and _
        // (`ユーザー名ですよ` is 8 characters, 24 bytes), and which to use is the first fix.
        if !handle.utf8.allSatisfy({ isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: "_") }) {
            let fix = suggestedHandle(handle).map { " (try \"\($0)\")" } ?? ""
            return "handle \(handle.quotedShortened()) may use only a-z, 0-9 and _\(fix)"
        }
        if handle.utf8.count > 30 { return "handle \(handle.quotedShortened()) is longer than 30 characters" }
        if reservedWords.contains(handle) { return "\"\(handle)\" is reserved for the site's own pages: choose another handle" }
        return nil
    }

    /// Why `slug` is not a valid post slug or page name, or nil when it is (`^[a-z0-9][a-z0-9-]{0,79}$`).
    public static func slugProblem(_ slug: String) -> String? {
        let bytes = slug.utf8
        guard let first = bytes.first else { return "a slug cannot be empty" }
        // The characters first, as for a handle: a length in bytes is only right for them, and
        // which to use is the first fix (`Sunset` starts with a letter, but not one of a-z).
        var fix: String {
            let suggested = self.slug(from: slug)
            return suggested.isEmpty ? "" : " (try \"\(suggested)\")"
        }
        if !bytes.allSatisfy({ isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: "-") }) {
            return "slug \(slug.quotedShortened()) may use only a-z, 0-9 and -\(fix)"
        }
        if !isLowercaseLetterOrDigit(first) { return "slug \(slug.quotedShortened()) must start with a-z or 0-9\(fix)" }
        if bytes.count > 80 { return "slug \(slug.quotedShortened()) is longer than 80 characters" }
        return nil
    }

    private static func isLowercaseLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The valid handle `text` reads as, or nil when there is none worth offering. Each character
    /// becomes the Latin letters or digits it looks like, else `_`: accents come off (`alíce` →
    /// `alice`), compatibility forms become the plain ones (`ａ` → `a`), Cyrillic and Greek
    /// look-alikes become the Latin letter (`аlice` → `alice`). A result that is reserved, or
    /// only `_`, is not a handle anyone meant, so no suggestion is made.
    private static func suggestedHandle(_ text: String) -> String? {
        // Only as far as 30 characters: the text may be a megabyte long.
        var handle = ""
        for character in text {
            handle += latinLetters(for: character) ?? "_"
            if handle.utf8.count >= 30 { break }
        }
        handle = String(handle.prefix(30))
        guard handle.contains(where: { $0 != "_" }), handleProblem(handle) == nil else { return nil }
        return handle
    }

    /// What `character` looks like in a-z and 0-9, or nil when it looks like none of them.
    private static func latinLetters(for character: Character) -> String? {
        var latin = ""
        for scalar in String(character).decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue  // the accents NFKD split off
            default: break
            }
            let lowercase = LatinLookAlikes.latin(for: scalar).map(String.init) ?? scalar.properties.lowercaseMapping
            guard lowercase.utf8.allSatisfy(isLowercaseLetterOrDigit) else { return nil }
            latin += lowercase
        }
        return latin.isEmpty ? nil : latin
    }

    /// A valid slug made from any text (a photo's file name): lower case, each character as the
    /// Latin letters it looks like (as a suggested handle reads it: `Ä` → `a`, `ｆ` → `f`),
    /// every run of other characters one `-`, no `-` at either end, at most `limit` characters;
    /// empty when the text has no letter or digit that reads as a-z, 0-9.
    public static func slug(from text: String, limit: Int = 80) -> String {
        var slug = ""
        // Only as far as `limit` characters (all ASCII, so bytes): the text may be a megabyte long.
        for character in text {
            guard slug.utf8.count < limit else { break }
            if let latin = latinLetters(for: character) {
                slug += latin
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        // One character may read as several letters (`ﬁ` → `fi`).
        slug = String(slug.prefix(limit))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}
