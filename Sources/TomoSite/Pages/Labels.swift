import Foundation
import TomoCore

/// The theme's texts in one language (`LabelFiles`), and that language's dates: what a page
/// written in it says.
///
/// A label is a text with `{count}`, `{name}` and `{total}` placeholders, or an object of CLDR
/// plural forms (`{"one": …, "few": …, "many": …, "other": …}`) of which the rules of the
/// file's language choose one by the count (a label English lends to Portuguese keeps English
/// rules: "0 followers", not Portuguese's singular for 0); Japanese needs only `other`.
struct Labels: Sendable {
    let language: LanguageTag
    private let labels: [String: Label]
    private let rules: LanguageRules
    /// The labels as templates see them (`labels.followers`): plain texts only.
    let view: JSONValue

    private struct Label: Sendable {
        let value: JSONValue
        /// The rules of the language whose file gave the label.
        let rules: LanguageRules
        /// For a label lent by a language written the other way (English on an Arabic page,
        /// where no Arabic labels exist), the directional isolate of its own direction that its
        /// text comes after (closed by U+2069 POP DIRECTIONAL ISOLATE): otherwise the page's
        /// direction reorders it ("3 posts" shown as "posts 3", "Older →" as "→ Older"). Found
        /// once here, not for each of the hundreds of thousands of texts a build fills in.
        let isolate: String?

        init(value: JSONValue, rules: LanguageRules, page: LanguageRules) {
            self.value = value
            self.rules = rules
            // LEFT-TO-RIGHT ISOLATE or RIGHT-TO-LEFT ISOLATE.
            isolate = rules.direction == page.direction ? nil : (rules.direction == "rtl" ? "\u{2067}" : "\u{2066}")
        }

        /// `text` (this label's, filled in) isolated when the label is lent across directions.
        func isolated(_ text: String) -> String {
            guard let isolate, !text.isEmpty else { return text }
            return isolate + text + "\u{2069}"
        }
    }

    init(_ language: LanguageTag, files: LabelFiles) {
        self.language = language
        let rules = LanguageRules.of(language)
        labels = files.labels(for: language).mapValues { Label(value: $0.value, rules: LanguageRules.of($0.language), page: rules) }
        self.rules = rules
        view = .object(labels.compactMapValues { label in
            guard case .string(let text) = label.value else { return nil }
            return .string(label.isolated(text))
        })
    }

    /// The label `key` with `name` put in it, for a `<title>` or a meta attribute
    /// (`IsolatingText`).
    func isolatingText(_ key: String, name: String) -> IsolatingText {
        IsolatingText(own: text(key, name: name))
    }

    /// The label `key` with its placeholders (`{count}`, `{name}`, `{total}`) filled in; the key
    /// itself when the theme lacks it, so a missing label shows up on the page instead of vanishing.
    /// The name is isolated (`BidiIsolation`) wherever it goes: a heading ("{name}'s timeline")
    /// is one text, in which no markup can keep a name's open override from running on into
    /// the theme's words after it.
    func text(_ key: String, count: Int? = nil, name: String? = nil, total: Int? = nil) -> String {
        let label = labels[key]
        let filled = filledIn(label, key: key, count: count, name: name, total: total)
        return label?.isolated(filled) ?? filled
    }

    private func filledIn(_ label: Label?, key: String, count: Int?, name: String?, total: Int?) -> String {
        var template: String
        switch label?.value {
        case .string(let text)?:
            template = text
        case .object(let forms)?:
            let form = label?.rules.pluralForm(count ?? 0) ?? "other"
            template = forms[form]?.stringValue ?? forms["other"]?.stringValue ?? key
        default:
            template = key
        }
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        // By hand rather than with Foundation's replacingOccurrences: a build fills in a like
        // count for every post card it renders.
        var filled = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            filled += rest[..<open]
            let afterOpen = rest.index(after: open)
            let close = rest[afterOpen...].firstIndex(of: "}")
            let value: String? = switch close.map({ rest[afterOpen..<$0] }) {
            case "count": count.map(String.init)
            case "name": name.map(BidiIsolation.isolated)
            case "total": total.map(String.init)
            default: nil
            }
            if let value, let close {
                filled += value
                rest = rest[rest.index(after: close)...]
            } else {
                filled += "{"
                rest = rest[afterOpen...]
            }
        }
        return filled + rest
    }

    /// `rtl` or `ltr`: the direction of the language whose file gave the label `key` (the page's
    /// own when no file has it). English labels lent to an Arabic page are laid out left to
    /// right where their arrows say so (`← Newer`, `Older →`).
    func direction(of key: String) -> String {
        (labels[key]?.rules ?? rules).direction ?? "ltr"
    }

    /// A post's date as this language writes it, on the author's clock (`PostDates.display`).
    func date(_ date: Date, utcOffset: Int) -> String {
        PostDates.display(date, utcOffset: utcOffset, language: language)
    }

    /// `og:locale` of a page in this language (`LanguageRules.openGraphLocale`).
    var openGraphLocale: String? { rules.openGraphLocale }

    /// `<html dir>` of a page in this language: `rtl`, or nil for left to right
    /// (`LanguageRules.direction(of:)`).
    var direction: String? { rules.direction }
}
