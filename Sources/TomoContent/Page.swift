/// A free page from `content/pages/<name>.md`, published at `/<name>/`.
public struct Page: Sendable, Hashable {
    /// The file name without `.md`; a valid slug that is no handle and no reserved word.
    public var name: String
    /// The file it came from, relative to the site folder.
    public var file: String
    public var title: String
    public var description: String?
    /// `draft: true`: published only by `tomo serve --drafts` (and `tomo build --drafts`).
    public var draft: Bool
    /// The body as written (Markdown) and as HTML (raw HTML and unsafe links removed).
    public var markdown: String
    public var html: String
}
