import TomoCore

/// The theme's label files (`labels/<language>.json`), by language: the built-in ones, each with
/// the site's own file of that language laid over it key by key (a site's file of a language
/// the theme lacks adds that language).
///
/// A label is a text with `{count}`, `{name}` and `{total}` placeholders, or an object of CLDR
/// plural forms (`{"one": …, "few": …, "other": …}`, `other` required) chosen by the count.
struct LabelFiles: Sendable {
    private var byLanguage: [LanguageTag: [String: JSONValue]] = [:]
    /// The site's own file of each language, so two spellings of one tag (`zh-hans.json` and
    /// `zh-Hans.json`) are an error rather than one file silently winning.
    private var siteFiles: [LanguageTag: String] = [:]

    static func isLabelFile(_ path: String) -> Bool {
        path.hasPrefix("labels/") && path.hasSuffix(".json") && !path.dropFirst("labels/".count).contains("/")
    }

    /// Reads the label file at `path` (`labels/fr.json`, in the theme), reporting every problem
    /// into `problems`; the site's own file (`overriding`) wins over the built-in one key by key.
    mutating func add(_ fileBytes: [UInt8], at path: String, overriding: Bool = false, into problems: inout [Diagnostic]) {
        // Past a byte order mark, as the JSON parser reads, so that a label is found at the
        // column an editor shows.
        let bytes = Array(fileBytes.dropFirst(ByteOrderMark.length(in: fileBytes)))
        let file = "templates/" + path
        let start = SourceLocation(file: file, line: 1, column: 1)
        let name = String(path.dropFirst("labels/".count).dropLast(".json".count))
        guard let language = LanguageTag(name) else {
            let problem = LanguageTag.problem(name) ?? ""
            problems.append(Diagnostic("this label file's name \(problem); a label file is named by its language's tag (labels/fr.json, labels/zh-Hans.json)", at: start))
            return
        }
        if overriding, let other = siteFiles[language] {
            problems.append(Diagnostic("templates/\(other) is the same language (\(language)): keep one of the two files", at: start))
            return
        }
        let values: [String: JSONValue]
        do {
            guard let object = try JSONParser.parse(bytes: bytes, file: file).objectValue else {
                problems.append(Diagnostic("a label file is a JSON object of label names and texts", at: start))
                return
            }
            values = object
        } catch {
            problems.append(error)
            return
        }
        let problemCount = problems.count
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let problem = Self.problem(with: value) {
                problems.append(Diagnostic("the label \"\(key)\" \(problem)", at: Self.location(of: key, in: bytes, file: file)))
            }
        }
        guard problems.count == problemCount else { return }
        if overriding { siteFiles[language] = path }
        byLanguage[language, default: [:]].merge(values) { builtin, own in overriding ? own : builtin }
    }

    /// The labels of `language`: each key from the most specific file that has it along the
    /// tag's fallbacks (`zh-Hans-TW`, `zh-Hans`, `zh`, then English), with that file's language.
    func labels(for language: LanguageTag) -> [String: (value: JSONValue, language: LanguageTag)] {
        var labels: [String: (value: JSONValue, language: LanguageTag)] = [:]
        for fallback in language.fallbacks {
            for (key, value) in byLanguage[fallback] ?? [:] where labels[key] == nil {
                labels[key] = (value, fallback)
            }
        }
        return labels
    }

    /// What is wrong with a label's value, nil when it is a text or an object of plural forms.
    private static func problem(with value: JSONValue) -> String? {
        switch value {
        case .string(let text):
            // Written as a JSON escape (`\u0002`), a control character is in the text all the same.
            return ForbiddenCharacters.problem(in: text)
        case .object(let forms):
            if let unknown = forms.keys.sorted().first(where: { !LanguageRules.pluralForms.contains($0) }) {
                let hint = Suggestion.hint(for: unknown, in: LanguageRules.pluralForms.sorted())
                return "has the form \"\(unknown)\"\(hint): plural forms are CLDR's zero, one, two, few, many and other"
            }
            if forms["other"] == nil {
                return "has no \"other\" form: add it, for every count the other forms leave"
            }
            if let form = forms.keys.sorted().first(where: { forms[$0]?.stringValue == nil }) {
                return "has a form \"\(form)\" that is not a text: write it in quotes"
            }
            return forms.keys.sorted().lazy.compactMap { form in
                forms[form]?.stringValue.flatMap { ForbiddenCharacters.problem(in: $0, named: "has a form \"\(form)\" that") }
            }.first
        default:
            return "is neither a text nor an object of plural forms: write it in quotes"
        }
    }

    /// Where `key` is written in the file (its first `"key"`), for an error about its value.
    private static func location(of key: String, in bytes: [UInt8], file: String) -> SourceLocation {
        let needle = Array(("\"" + key + "\"").utf8)
        let offset = needle.count <= bytes.count
            ? (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
            : nil
        return offset.map { LineStarts(bytes).location(ofByte: $0, in: bytes, file: file) }
            ?? SourceLocation(file: file, line: 1, column: 1)
    }
}
