import Foundation

/// The text of a new post file, written so `PostReader` reads back exactly these values:
/// what `tomo post add` saves.
public enum PostFileText {
    /// `date` must be a `WrittenDate` form and `photo` a file name `<slug>.<ext>` (both are written
    /// as they are); `alt` and `caption` may be any text.
    public static func make(photo: String, date: String, alt: String?, visibility: Post.Visibility, caption: String) -> String {
        var lines = ["---", "photo: \(photo)", "date: \(date)"]
        if let alt { lines.append("alt: \(quoted(alt))") }
        lines.append("visibility: \(visibility.rawValue)")
        lines.append("---")
        let body = caption.trimmingCharacters(in: .whitespacesAndNewlines)
        return lines.joined(separator: "\n") + "\n" + (body.isEmpty ? "" : body + "\n")
    }

    /// A YAML double-quoted scalar: any text reads back as itself, never as a number, a list or a comment.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
