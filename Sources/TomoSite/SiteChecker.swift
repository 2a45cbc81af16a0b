import Foundation
import TomoContent
import TomoCore
import TomoStore

/// Everything `tomo check` reports: what `tomo build` would fail on, and the warnings. It runs
/// the build itself but for the writing: the same loading of content, theme, store and address
/// (`SiteInputs`), the same published view and tests of every image it shows
/// (`PublishedImages.inspect`: headers decoded, no thumbnail made), the same plan, and every page rendered (and dropped) by the same
/// renderer, so a template that fails to render fails here too; and what does not agree between
/// the store and the content (`StoreFile.audit`). Writes nothing.
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

    public static func check(site: URL, buildDate: Date = Date()) -> Result {
        check(BuildOptions(site: site, buildDate: buildDate))
    }

    /// What `tomo build` with these options would fail on (`--drafts`, `--future` and
    /// `--base-url` change what is published, and so what can collide or fail to render).
    public static func check(_ options: BuildOptions) -> Result {
        let site = options.site
        let loaded = ContentLoader.load(site: site)
        let rest = SiteInputs.load(options, content: loaded)
        var diagnostics = loaded.diagnostics + rest.problems
        if let warning = loaded.content?.config.missingBaseURLWarning(given: options.baseURL) { diagnostics.append(warning) }
        if let theme = rest.theme { diagnostics += missingPartials(in: theme) }
        if let inputs = rest.inputs { diagnostics += renderingProblems(inputs, options: options) }
        do {
            diagnostics += try StoreFile(site: site).audit(profiles: loaded.profileFiles) { post in
                FileManager.default.fileExists(atPath: site.appendingPathComponent(ContentPath.postFile(post.handle, post.slug + ".md")).path)
            }
        } catch {
            // A store that cannot be read is reported once, by the loading above.
            if !diagnostics.contains(where: { $0.description == error.description }) { diagnostics.append(error) }
        }
        return Result(
            diagnostics: DiagnosticList(diagnostics).inReportOrder,
            profileFileCount: loaded.profileFileCount,
            pageFileCount: loaded.pageFileCount,
            postFileCount: loaded.postFileCount
        )
    }

    /// What the build's later steps would fail on: the images, then every planned file.
    private static func renderingProblems(_ inputs: SiteInputs, options: BuildOptions) -> [Diagnostic] {
        do {
            let model = try SiteModel.make(from: inputs, options: options, checkingOnly: true)
            try SiteRenderer.forEach(SitePlan.files(for: model)) { file throws(Diagnostic) in
                // A `.file` is a thumbnail, whose source the inspector has tested.
                if case .file = file.source { return }
                _ = try SiteRenderer.bytes(of: file, model: model)
            }
            return []
        } catch {
            return error.diagnostics
        }
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
