import TomoCore

/// Everything the content files of a site say, validated: what a site builder reads.
public struct SiteContent: Sendable {
    public var config: SiteConfig
    /// Sorted by handle.
    public var profiles: [Profile]
    /// Sorted by name.
    public var pages: [Page]
    /// Every post that loaded, whatever its visibility, sorted by id.
    public var posts: [Post] = []
}

/// The outcome of loading a site's content: the content (when site.yaml could be read) and
/// every error and warning of every file, sorted by file, line and column.
public struct ContentLoadResult: Sendable {
    /// Nil when `content/site.yaml` has errors. Profiles and pages with errors are left out.
    public var content: SiteContent?
    public var diagnostics: [Diagnostic]
    /// Profile, page and post files found, whether they loaded or not (for summaries).
    public var profileFileCount: Int
    public var pageFileCount: Int
    public var postFileCount: Int = 0
    /// Handle → profile file (`content/users/alice.yaml`), for every profile file found.
    public var profileFiles: [String: String] = [:]

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The content when there was no error; otherwise every error, for a build to report and stop.
    public func validated() throws(DiagnosticList) -> SiteContent {
        guard errors.isEmpty, let content else { throw DiagnosticList(errors) }
        return content
    }
}
