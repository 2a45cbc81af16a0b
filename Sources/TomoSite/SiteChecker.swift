import Foundation
import TomoContent
import TomoCore
import TomoStore

/// Everything `tomo check` reports: the content's errors and warnings, the theme's broken
/// templates and partials that do not exist, a store that cannot be read, and what does not
/// agree between the store and the content (`StoreFile.audit`). Writes nothing.
public enum SiteChecker {
    public struct Result: Sendable {
        /// Sorted by file, line and column.
        public var diagnostics: [Diagnostic]
        public var profileFileCount: Int
        public var pageFileCount: Int
        public var postFileCount: Int

        public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
        public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    }

    public static func check(site: URL) -> Result {
        let loaded = ContentLoader.load(site: site)
        var diagnostics = loaded.diagnostics
        let language = loaded.content?.config.language.rawValue ?? SiteConfig.Language.en.rawValue
        do {
            let theme = try Theme.load(site: site, language: language)
            diagnostics += missingPartials(in: theme)
        } catch {
            diagnostics += error.diagnostics
        }
        do {
            diagnostics += try StoreFile(site: site).audit(profiles: loaded.profileFiles) { post in
                FileManager.default.fileExists(atPath: site.appendingPathComponent("content/posts/\(post.handle)/\(post.slug).md").path)
            }
        } catch {
            diagnostics.append(error)
        }
        return Result(
            diagnostics: diagnostics.sorted(by: Diagnostic.isOrderedBefore),
            profileFileCount: loaded.profileFileCount,
            pageFileCount: loaded.pageFileCount,
            postFileCount: loaded.postFileCount
        )
    }

    /// A partial or parent tag naming no template renders nothing: worth a warning.
    static func missingPartials(in theme: Theme) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for name in theme.templates.names {
            guard let template = theme.templates[name] else { continue }
            for reference in template.references where theme.templates[reference.name] == nil {
                let hint = Suggestion.hint(for: reference.name, in: theme.templates.names)
                warnings.append(Diagnostic(
                    "the partial \"\(reference.name)\" does not exist, so this tag renders nothing\(hint) (add templates/\(reference.name).mustache)",
                    at: reference.location,
                    severity: .warning
                ))
            }
        }
        return warnings
    }
}
