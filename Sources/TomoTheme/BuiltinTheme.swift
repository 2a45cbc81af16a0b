import Foundation

/// The default theme, compiled into the binary from the repository's top-level `templates/`
/// (the single source of truth). A site's own `templates/` folder overrides it file by file.
public enum BuiltinTheme {
    /// Every file of the theme, by its path inside `templates/` (`layout.mustache`, `static/style.css`).
    public static var paths: [String] { EmbeddedTheme.files.keys.sorted() }

    /// The bytes of one theme file.
    public static func contents(of path: String) -> Data? {
        switch EmbeddedTheme.files[path] {
        case .text(let text)?: return Data(text.utf8)
        case .base64(let encoded)?: return Data(base64Encoded: encoded)
        case nil: return nil
        }
    }

    /// The text of one theme text file, without a copy of its bytes (`icons/brands.tsv` is megabytes).
    public static func text(of path: String) -> String? {
        guard case .text(let text)? = EmbeddedTheme.files[path] else { return nil }
        return text
    }

    /// The Mustache templates, by name (`layout` for `layout.mustache`).
    public static var templateSources: [String: String] {
        var sources: [String: String] = [:]
        for (path, content) in EmbeddedTheme.files where path.hasSuffix(".mustache") && !path.hasPrefix("static/") {
            if case .text(let text) = content {
                sources[String(path.dropLast(".mustache".count))] = text
            }
        }
        return sources
    }
}
