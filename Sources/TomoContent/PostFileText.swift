import Foundation
import TomoYAML

/// The text of a new post file, written so `PostReader` reads back exactly these values:
/// what `tomo post add` saves.
public enum PostFileText {
    /// `date` must be a `WrittenDate` form and `photo` a file name `<slug>.<ext>` (both are written
    /// as they are); `alt` and `caption` may be any text.
    public static func make(photo: String, date: String, alt: String?, visibility: Post.Visibility, caption: String) -> String {
        var lines = ["---", "photo: \(photo)", "date: \(date)"]
        if let alt { lines.append("alt: \(YAMLScalar.doubleQuoted(alt))") }
        lines.append("visibility: \(visibility.rawValue)")
        lines.append("---")
        let body = caption.trimmingCharacters(in: .whitespacesAndNewlines)
        return lines.joined(separator: "\n") + "\n" + (body.isEmpty ? "" : body + "\n")
    }
}
