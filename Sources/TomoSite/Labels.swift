import TomoCore

/// The theme's texts in the site's language (`templates/labels/<language>.json`).
///
/// A label is a text with `{count}`, `{name}` and `{total}` placeholders, or `{"one": …, "other": …}` where
/// the singular differs ("1 follower" / "2 followers"); Japanese needs only one form.
struct Labels: Sendable {
    let values: [String: JSONValue]

    /// The label `key` with its placeholders (`{count}`, `{name}`, `{total}`) filled in; the key
    /// itself when the theme lacks it, so a missing label shows up on the page instead of vanishing.
    func text(_ key: String, count: Int? = nil, name: String? = nil, total: Int? = nil) -> String {
        var template: String
        switch values[key] {
        case .string(let text)?:
            template = text
        case .object(let forms)?:
            let form = count == 1 ? "one" : "other"
            template = forms[form]?.stringValue ?? forms["other"]?.stringValue ?? key
        default:
            template = key
        }
        if let count { template = template.replacingOccurrences(of: "{count}", with: String(count)) }
        if let name { template = template.replacingOccurrences(of: "{name}", with: name) }
        if let total { template = template.replacingOccurrences(of: "{total}", with: String(total)) }
        return template
    }

    /// The labels as templates see them (`labels.followers`): plain texts only.
    var view: JSONValue {
        .object(values.filter { if case .string = $0.value { return true } else { return false } })
    }
}
