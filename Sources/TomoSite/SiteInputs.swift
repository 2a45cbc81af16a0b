import Foundation
import TomoContent
import TomoCore
import TomoStore

/// Everything a build reads, loaded and validated: the content files, the theme, the store and
/// the site's address. Every problem of every file is reported together.
struct SiteInputs: Sendable {
    var content: SiteContent
    var theme: Theme
    var store: Store
    var address: SiteAddress
    var warnings: [Diagnostic]

    /// The templates every site needs; a site may override them but not remove them.
    static let requiredTemplates = ["home", "profile", "user-list", "post", "timeline", "feed", "page", "404"]

    static func load(_ options: BuildOptions) throws(DiagnosticList) -> SiteInputs {
        let loaded = ContentLoader.load(site: options.site)
        let content = try loaded.validated()
        let theme = try loadTheme(options, language: content.config.language.rawValue)
        var warnings = loaded.warnings
        do throws(Diagnostic) {
            let store = try StoreFile(site: options.site).read()
            let address = try SiteAddress(options.baseURL ?? content.config.baseURL ?? "http://localhost:8080/")
            if options.baseURL == nil, content.config.baseURL == nil {
                warnings.append(Diagnostic("content/site.yaml has no baseURL: feeds, the sitemap and Open Graph use http://localhost:8080/ (add baseURL: https://your.site/ or pass --base-url)", severity: .warning))
            }
            return SiteInputs(content: content, theme: theme, store: store, address: address, warnings: warnings)
        } catch {
            throw DiagnosticList([error])
        }
    }

    /// The theme, with every template a site needs.
    static func loadTheme(_ options: BuildOptions, language: String) throws(DiagnosticList) -> Theme {
        let theme = try Theme.load(site: options.site, language: language)
        let missing = requiredTemplates.filter { theme.templates[$0] == nil }
        guard missing.isEmpty else {
            throw DiagnosticList(missing.map { Diagnostic("the theme has no \($0).mustache template: add templates/\($0).mustache") })
        }
        return theme
    }
}
