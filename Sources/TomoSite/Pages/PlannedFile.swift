import TomoCore
import TomoImages

/// One file of the output, described before it is made.
struct PlannedFile: Sendable {
    enum Source: Sendable {
        /// A page: a template and its view, built from the site (through `PageViews`) only when
        /// the page is rendered, so a plan can be reused with a newer model after an edit.
        case page(template: String, view: @Sendable (PageViews) -> JSONValue)
        /// Bytes made by code (sitemap, search index) or read from the theme.
        case bytes(@Sendable (PageViews) throws(Diagnostic) -> [UInt8])
        /// An immutable file to publish as it is (a cached thumbnail), by absolute path.
        case file(CachedFilePath)
    }

    var path: String
    /// What the file reads (may repeat a key), in lists that files may share (the pages of a
    /// timeline share most of theirs, and a shared list is not copied): a rebuild remakes the
    /// file when any of them changed.
    var inputLists: [[InputKey]]
    var source: Source

    init(path: String, inputs: [InputKey], source: Source) {
        self.init(path: path, inputLists: [inputs], source: source)
    }

    init(path: String, inputLists: [[InputKey]], source: Source) {
        self.path = path
        self.inputLists = inputLists
        self.source = source
    }

    /// Every input the file reads.
    var inputs: FlattenSequence<[[InputKey]]> { inputLists.joined() }

    var isPage: Bool {
        if case .page = source { return true }
        return false
    }
}
