/// The files a publish added, changed or removed, by path (`alice/index.html`), sorted.
public struct SiteChanges: Sendable, Equatable {
    public var paths: [String]

    public init(paths: [String]) {
        self.paths = paths
    }

    /// How open pages should update: nil when nothing changed, `.css` when only stylesheets
    /// did (the page swaps them without losing its scroll position), else `.page`.
    public var reloadKind: ReloadKind? {
        if paths.isEmpty { return nil }
        return paths.allSatisfy { $0.lowercased().hasSuffix(".css") } ? .css : .page
    }
}
