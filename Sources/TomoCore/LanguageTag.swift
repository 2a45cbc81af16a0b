/// A well-formed BCP 47 language tag (RFC 5646's syntax: `en`, `zh-Hans-TW`, `sr-Latn-RS`,
/// `de-CH-1996`, `en-US-x-twain`), kept in its canonical letter case (language lowercase,
/// script titlecase, region uppercase) so that `ZH-hans` and `zh-Hans` are one language, one
/// label file and one `lang` attribute.
///
/// Only the syntax is checked, not the registry: a tag of a language no table knows is still
/// a tag, and its texts fall back to English.
public struct LanguageTag: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The tag, canonical case.
    public let text: String

    public static let english = LanguageTag(canonical: "en")

    private init(canonical: String) { text = canonical }

    /// The tag `written` names, or nil when it is not well-formed (`problem` says why).
    public init?(_ written: String) {
        guard case .success(let canonical) = Self.read(written) else { return nil }
        text = canonical
    }

    public var description: String { text }

    /// Whether the language subtag is one of 5 to 8 letters (`english`): well-formed, but RFC
    /// 5646 keeps those for the future, so no language has one yet.
    public var hasReservedLanguage: Bool {
        text.prefix { $0 != "-" }.count >= 5
    }

    public static func < (lhs: LanguageTag, rhs: LanguageTag) -> Bool { lhs.text < rhs.text }

    /// What is wrong with `written` as a language tag, and the fix; nil when it is one.
    public static func problem(_ written: String) -> String? {
        guard case .failure(let problem) = read(written) else { return nil }
        return "\(written.quotedValue) is not a BCP 47 language tag: \(problem)"
    }

    /// The tags to look a text up in, most specific first, ending in English (RFC 4647's
    /// lookup: drop the last subtag, and a single-letter one left before it):
    /// `zh-Hans-TW` → `zh-Hans-TW`, `zh-Hans`, `zh`, `en`.
    public var fallbacks: [LanguageTag] {
        var chain = [self]
        var subtags = text.split(separator: "-")
        while subtags.count > 1 {
            subtags.removeLast()
            if subtags.last?.count == 1 { subtags.removeLast() }
            if !subtags.isEmpty { chain.append(LanguageTag(canonical: subtags.joined(separator: "-"))) }
        }
        if !chain.contains(.english) { chain.append(.english) }
        return chain
    }

    /// RFC 5646's irregular grandfathered tags, the only ones that do not follow the syntax
    /// (the regular ones, `zh-min-nan`, do).
    static let irregular = [
        "en-GB-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-BE-FR", "sgn-BE-NL", "sgn-CH-DE",
    ]

    /// The longest tag tomo takes, in characters. RFC 5646 bounds no tag, but asks (section
    /// 4.4.1) that every registered tag without extensions or private use, 35 characters at
    /// most, be kept whole; 64 leaves room for an extension and a private part besides
    /// (`en-US-u-ca-gregory-nu-latn-x-twain` is 34), and keeps `<html lang>` from pushing
    /// `<meta charset>` out of the first 1024 bytes of a page, where browsers look for it.
    public static let maximumLength = 64

    /// The syntax as a regular expression, for the schemas `tomo schema` writes (which have no
    /// case flag): the same tags as `init`, as scripts/check_schemas.py checks, but for a
    /// variant or an extension's letter written twice in two letter cases (`de-1996-abcde-ABCDE`),
    /// which a backreference cannot see and only `tomo check` refuses.
    public static let pattern: String = {
        let alpha = "[A-Za-z]", digit = "[0-9]", alnum = "[A-Za-z0-9]"
        let language = "(?:\(alpha){2,3}(?:-\(alpha){3}){0,3}|\(alpha){4,8})"
        let script = "(?:-\(alpha){4})?", region = "(?:-(?:\(alpha){2}|\(digit){3}))?"
        let variant = "(?:\(alnum){5,8}|\(digit)\(alnum){3})"
        let singleton = "[0-9A-WY-Za-wy-z]"
        let langtag = language + script + region + "(?:-\(variant))*"
            + "(?:-\(singleton)(?:-\(alnum){2,8})+)*(?:-[Xx](?:-\(alnum){1,8})+)?"
        let privateUse = "[Xx](?:-\(alnum){1,8})+"
        let irregulars = irregular.map { tag in
            tag.map { $0.isLetter ? "[\($0.uppercased())\($0.lowercased())]" : String($0) }.joined()
        }
        // No variant twice among the variants (group 1), no singleton twice before the private
        // part (group 2): RFC 5646 section 2.2.5 and 2.2.6.
        let repeatedVariant = "(?!\(language)\(script)\(region)(?:-\(variant))*-(\(variant))(?:-\(variant))*-\\1(?:-|$))"
        let subtagBeforePrivatePart = "(?![Xx]-)\(alnum)+-"
        let repeatedSingleton = "(?!(?:\(subtagBeforePrivatePart))*?(\(singleton))-(?:\(subtagBeforePrivatePart))*\\2-)"
        return "^(?=.{1,\(maximumLength)}$)\(repeatedVariant)\(repeatedSingleton)(?:\(langtag)|\(privateUse)|\(irregulars.joined(separator: "|")))$"
    }()

    /// RFC 5646 section 2.1's ABNF, read subtag by subtag (no subtag can be read two ways, so
    /// one pass decides), with each subtag put in its canonical case.
    private static func read(_ written: String) -> Result<String, Problem> {
        if written.contains("_") {
            return .failure(Problem("subtags are joined by hyphens, so write \(written.replacingUnderscores)"))
        }
        if written.count > maximumLength {
            return .failure(Problem("it is \(written.count) characters long, and tomo takes tags of at most \(maximumLength): "
                + "write the language with at most a script, a region and what they need (en-US)"))
        }
        if let tag = irregular.first(where: { $0.lowercased() == written.lowercased() }) { return .success(tag) }
        let subtags = written.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let bad = subtags.first(where: { $0.isEmpty || $0.count > 8 || !$0.allSatisfy(\.isASCIIAlphanumeric) }) else {
            return readSubtags(subtags)
        }
        if bad.isEmpty { return .failure(Problem("it has an empty subtag: remove the extra hyphen")) }
        return .failure(Problem("the subtag \(bad.quotedValue) must be 1 to 8 ASCII letters or digits"))
    }

    private static func readSubtags(_ subtags: [String]) -> Result<String, Problem> {
        var canonical: [String] = []
        var index = 0
        func next(_ matches: (String) -> Bool) -> String? {
            guard index < subtags.count, matches(subtags[index]) else { return nil }
            index += 1
            return subtags[index - 1]
        }
        let example = "write a tag like en, ja, zh-Hans or pt-BR (RFC 5646)"
        if subtags[0].lowercased() != "x" {
            guard let language = next({ $0.isLetters && ($0.count != 1) }) else {
                return .failure(Problem("it must start with a language of 2 to 8 letters: \(example)"))
            }
            canonical.append(language.lowercased())
            if language.count <= 3 {
                for _ in 0..<3 {
                    guard let extlang = next({ $0.isLetters && $0.count == 3 }) else { break }
                    canonical.append(extlang.lowercased())
                }
            }
            if let script = next({ $0.isLetters && $0.count == 4 }) {
                canonical.append(script.prefix(1).uppercased() + script.dropFirst().lowercased())
            }
            if let region = next({ ($0.isLetters && $0.count == 2) || ($0.isDigits && $0.count == 3) }) {
                canonical.append(region.uppercased())
            }
            var variants: Set<String> = []
            while let variant = next({ (5...8).contains($0.count) || ($0.count == 4 && $0.first?.isASCIIDigit == true) }) {
                // A variant twice is no tag (RFC 5646 section 2.2.5), and HTML checkers say so.
                guard variants.insert(variant.lowercased()).inserted else {
                    return .failure(Problem("the variant \(variant.quotedValue) is written twice: write each variant once"))
                }
                canonical.append(variant.lowercased())
            }
            var singletons: Set<String> = []
            while let singleton = next({ $0.count == 1 && $0.lowercased() != "x" }) {
                // Each extension once (section 2.2.6): its subtags go after its one singleton.
                guard singletons.insert(singleton.lowercased()).inserted else {
                    return .failure(Problem("the extension \(singleton.quotedValue) is written twice: put all its subtags after the first -\(singleton.lowercased())-"))
                }
                canonical.append(singleton.lowercased())
                var parts = 0
                while let part = next({ $0.count >= 2 }) {
                    canonical.append(part.lowercased())
                    parts += 1
                }
                guard parts > 0 else {
                    return .failure(Problem("the extension \(singleton.quotedValue) needs subtags of 2 to 8 letters or digits after it"))
                }
            }
        }
        if let x = next({ $0.lowercased() == "x" }) {
            canonical.append(x.lowercased())
            let first = index
            while next({ _ in true }) != nil {}
            guard index > first else { return .failure(Problem("the private use part \"x\" needs subtags after it")) }
            canonical += subtags[first...].map { $0.lowercased() }
        }
        guard index == subtags.count else {
            return .failure(Problem("the subtag \(subtags[index].quotedValue) cannot stand there: \(example)"))
        }
        return .success(canonical.joined(separator: "-"))
    }

    private struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

private extension String {
    var isLetters: Bool { !isEmpty && allSatisfy { $0.isASCII && $0.isLetter } }
    var isDigits: Bool { !isEmpty && allSatisfy(\.isASCIIDigit) }
    var replacingUnderscores: String { split(separator: "_", omittingEmptySubsequences: false).joined(separator: "-") }
}

private extension Character {
    var isASCIIAlphanumeric: Bool { isASCII && (isLetter || isNumber) }
    var isASCIIDigit: Bool { isASCII && isNumber }
}
