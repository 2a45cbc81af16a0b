import TomoCore

extension NodeReader {
    /// The language tag under `key` (site.yaml's and a profile's `language`), in canonical case;
    /// nil when the key is absent, or with a located error when it is no well-formed tag.
    func languageTag(_ fields: Fields, _ key: String) -> LanguageTag? {
        guard let text = string(fields, key), let node = fields[key] else { return nil }
        if let tag = LanguageTag(text) { return tag }
        error("\(key) \(LanguageTag.problem(text) ?? "")", at: node.location)
        return nil
    }
}
