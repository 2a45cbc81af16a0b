import Foundation
import TomoContent
import TomoCore
import TomoStore

/// Everything a build reads, loaded and validated: the content files, the theme, the store and
/// the site's address. Every problem of every file is reported together.
struct SiteInputs: Sendable {
    var content: SiteContent
    var theme: Theme
    var rootFolder: RootFolder
    var store: Store
    var address: SiteAddress
    var warnings: [Diagnostic]

    /// The templates every site needs; a site may override them but not remove them.
    static let requiredTemplates = ["home", "profile", "user-list", "post", "timeline", "feed", "page", "404", "redirect"]

    /// `stamps`: the input files' stamps, taken before loading: then the profiles and posts the
    /// last load parsed are used for the files that did not change (`ParsedFiles`), and what
    /// this load parsed is kept for the next one (`--full` parses everything again); and the
    /// folders are read as that walk found them, not listed again.
    static func load(_ options: BuildOptions, stamps: InputStamps? = nil) throws(DiagnosticList) -> SiteInputs {
        // The store is read on another core while the content loads.
        let store = Background { Result { () throws(DiagnosticList) in try StoreFile(site: options.site).readForBuild() } }
        let parsed = stamps.map { ParsedFiles(site: options.site, stamps: $0.byPath, tool: BuildState.toolIdentity, readingKept: !options.full) }
        let loaded = ContentLoader.load(site: options.site, parsed: parsed, listings: stamps?.listings)
        parsed?.save()
        ProcessMemory.releaseElsewhere(consume parsed)
        let rest = load(options, content: loaded, store: store.value)
        guard var inputs = rest.inputs else { throw DiagnosticList(loaded.errors + rest.problems) }
        // What `tomo check` warns of between the store and the content (a like of a post deleted
        // by hand, a registration without a profile), which only the whole content shows.
        let byPath = stamps?.byPath
        do {
            inputs.warnings += try StoreFile(site: options.site).auditWarnings(of: inputs.store, profiles: loaded.profileFiles) { post in
                let file = ContentPath.postFile(post.handle, post.slug + ".md")
                return byPath.map { $0[file] != nil } ?? FileManager.default.fileExists(atPath: options.site.appendingPathComponent(file).path)
            }
        } catch {
            throw DiagnosticList([error])
        }
        return inputs
    }

    /// The inputs from content already loaded: the theme, the store and the address are read
    /// even when the content has errors, so that every problem is known at once. `problems`
    /// are theirs (the content's own are in `loaded`); `inputs` is nil when there is any.
    /// `store`: the store as read already, when it was.
    static func load(
        _ options: BuildOptions, content loaded: ContentLoadResult, store storeRead: Result<Store, DiagnosticList>? = nil
    ) -> (inputs: SiteInputs?, theme: Theme?, problems: [Diagnostic]) {
        // The build keeps what it makes there; tomo check fails on it too, as the build would.
        var problems: [Diagnostic] = CacheFolder.problem(site: options.site).map { [$0] } ?? []
        var theme: Theme?
        do {
            theme = try loadTheme(options)
        } catch {
            problems += error.diagnostics
        }
        var rootFolder: RootFolder?
        do {
            rootFolder = try RootFolder.load(site: options.site)
        } catch {
            problems += error.diagnostics
        }
        var store: Store?
        do {
            store = try (storeRead ?? Result { () throws(DiagnosticList) in try StoreFile(site: options.site).readForBuild() }).get()
        } catch {
            problems += error.diagnostics
        }
        guard let content = try? loaded.validated() else { return (nil, theme, problems) }
        var address: SiteAddress?
        do {
            address = try SiteAddress(options.baseURL ?? content.config.baseURL ?? SiteConfig.fallbackBaseURL)
        } catch {
            var problem = error
            // site.yaml's address is wrong at its line; --base-url's has none.
            if options.baseURL == nil, problem.location == nil { problem.location = content.config.baseURLAt }
            problems.append(problem)
        }
        guard let theme, let rootFolder, let store, let address, problems.isEmpty else { return (nil, theme, problems) }
        let warnings = content.config.missingBaseURLWarning(given: options.baseURL).map { (loaded.warnings + [$0]).sorted(by: Diagnostic.isOrderedBefore) } ?? loaded.warnings
        return (SiteInputs(content: content, theme: theme, rootFolder: rootFolder, store: store, address: address, warnings: warnings), theme, problems)
    }

    /// The theme, with every template a site needs.
    static func loadTheme(_ options: BuildOptions) throws(DiagnosticList) -> Theme {
        let theme = try Theme.load(site: options.site)
        let missing = requiredTemplates.filter { theme.templates[$0] == nil }
        guard missing.isEmpty else {
            throw DiagnosticList(missing.map { Diagnostic("the theme has no \($0).mustache template: add templates/\($0).mustache") })
        }
        return theme
    }
}
