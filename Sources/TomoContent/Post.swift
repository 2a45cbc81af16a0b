import Foundation

/// A photo post from `content/posts/<handle>/<slug>.md`, with its photo beside it.
public struct Post: Sendable, Hashable {
    /// Who may see a post; only `public` posts are ever published.
    public enum Visibility: String, Sendable, Hashable, CaseIterable {
        case `public`
        case followers
        case `private`
    }

    /// The folder name: a valid handle with a profile.
    public var handle: String
    /// The file name without `.md`: a valid slug.
    public var slug: String
    /// The file it came from, relative to the site folder.
    public var file: String
    /// The photo's path relative to `content/posts/<handle>/`; the file exists and stays inside that folder.
    public var photo: String
    /// When it was posted, with the text and offset the author wrote, to show their local time.
    public var date: Date
    public var dateText: String
    /// Seconds east of UTC (`+09:00` is 32400); 0 when the date was written without an offset.
    public var utcOffset: Int
    /// The photo described for people who cannot see it; nil when the post has none.
    public var alt: String?
    public var visibility: Visibility
    public var caption: Caption

    /// `<handle>/<slug>`, the id the store and the CLI name the post by.
    public var id: String { "\(handle)/\(slug)" }

    /// The photo's path relative to the site folder (`content/posts/alice/sunset.jpg`).
    public var photoFile: String { "content/posts/\(handle)/\(photo)" }

    /// The caption as written (Markdown, without the blank lines around it), its HTML (raw
    /// HTML and unsafe links removed) and its first line as plain text; all empty without one.
    public struct Caption: Sendable, Hashable {
        public var markdown: String
        public var html: String
        public var firstLine: String
    }

    /// The photo formats a post may use (what the image pipeline reads), lower case.
    public static let photoExtensions = ["jpg", "jpeg", "png", "webp", "gif", "heic", "avif"]
}
