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

    /// The labels as templates see them (`labels.followers`): plain texts only.
    var view: JSONValue {
        .object(values.filter { if case .string = $0.value { return true } else { return false } })
    }
}
