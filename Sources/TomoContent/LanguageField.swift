import TomoCore

extension NodeReader {
    /// The language tag under `key` (site.yaml's and a profile's `language`), in canonical case;
    /// nil when the key is absent, or with a located error when it is no well-formed tag.
    func languageTag(_ fields: Fields, _ key: String) -> LanguageTag? {
        guard let text = string(fields, key), let node = fields[key] else { return nil }
        guard let tag = LanguageTag(text) else {
            error("\(key) \(LanguageTag.problem(text) ?? "")", at: node.location)
            return nil
        }
        if tag.hasReservedLanguage {
            warning("\(key) \(text.quotedValue) starts with a language of 5 to 8 letters, which RFC 5646 keeps for the future: no label file or CLDR rule knows it, so its pages are in English (write the 2- or 3-letter code: en, ja, fr)", at: node.location)
        }
        return tag
    }
}
