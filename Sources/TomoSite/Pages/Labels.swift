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
    }

    init(_ language: LanguageTag, files: LabelFiles) {
        self.language = language
        labels = files.labels(for: language).mapValues { Label(value: $0.value, rules: LanguageRules.of($0.language)) }
        rules = LanguageRules.of(language)
        view = .object(labels.compactMapValues { if case .string = $0.value { $0.value } else { nil } })
    }

    /// The label `key` with its placeholders (`{count}`, `{name}`, `{total}`) filled in; the key
    /// itself when the theme lacks it, so a missing label shows up on the page instead of vanishing.
    /// The label `key` with `name` put in it isolated, for a `<title>` or a meta attribute
    /// (`IsolatingText`).
    func isolatingText(_ key: String, name: String) -> IsolatingText {
        IsolatingText(own: text(key, name: BidiIsolation.isolated(name)))
    }

    func text(_ key: String, count: Int? = nil, name: String? = nil, total: Int? = nil) -> String {
        var template: String
        let label = labels[key]
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
            case "name": name
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
