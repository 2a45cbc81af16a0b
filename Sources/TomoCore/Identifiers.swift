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
    public static func handleProblem(_ handle: String) -> String? {
        if handle.isEmpty { return "a handle cannot be empty" }
        if handle.utf8.count > 30 { return "handle \"\(handle)\" is longer than 30 characters" }
        if !handle.utf8.allSatisfy({ isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: "_") }) {
            return "handle \"\(handle)\" may use only a-z, 0-9 and _ (try \"\(suggestedHandle(handle))\")"
        }
        if reservedWords.contains(handle) { return "\"\(handle)\" is reserved for the site's own pages: choose another handle" }
        return nil
    }

    /// Why `slug` is not a valid post slug or page name, or nil when it is (`^[a-z0-9][a-z0-9-]{0,79}$`).
    public static func slugProblem(_ slug: String) -> String? {
        let bytes = slug.utf8
        guard let first = bytes.first else { return "a slug cannot be empty" }
        if bytes.count > 80 { return "slug \"\(slug)\" is longer than 80 characters" }
        if !isLowercaseLetterOrDigit(first) { return "slug \"\(slug)\" must start with a-z or 0-9" }
        if !bytes.allSatisfy({ isLowercaseLetterOrDigit($0) || $0 == UInt8(ascii: "-") }) {
            return "slug \"\(slug)\" may use only a-z, 0-9 and - (try \"\(self.slug(from: slug))\")"
        }
        return nil
    }

    private static func isLowercaseLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func suggestedHandle(_ text: String) -> String {
        let mapped = text.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
        }
        return String(String(mapped).prefix(30))
    }

    /// A valid slug made from any text (a photo's file name): lower case, every run of other
    /// characters than a-z and 0-9 one `-`, no `-` at either end, at most `limit` characters;
    /// empty when the text has no letter or digit of a-z, 0-9.
    public static func slug(from text: String, limit: Int = 80) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, isLowercaseLetterOrDigit(UInt8(scalar.value)) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.count > limit || slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}
