import Foundation
import TomoCore

/// A photo post from `content/posts/<handle>/<slug>.md`, with its photo beside it.
public struct Post: Sendable, Hashable {
    /// Who may see a post; only `public` posts are ever published.
    public enum Visibility: String, Sendable, Hashable, CaseIterable {
        case `public`
        case followers
        case `private`
    }

    /// What the file says; shared, not copied (see `SharedFields`).
    struct Fields: Sendable, Hashable {
        var handle: String
        var slug: String
        /// `<handle>/<slug>`, put together once: plans, fingerprints and indexes hold it a dozen
        /// times per post, and each one made anew would be a string of its own.
        var id: String
        var file: String
        var photo: String
        /// Put together once, as `id` is: each page showing the photo looks it up by this path.
        var photoFile: String
        var date: Date
        var dateText: String
        var utcOffset: Int
        var alt: String?
        var visibility: Visibility
        var draft: Bool
        var caption: Caption
        var photoAt: SourceLocation?
    }

    private let shared: SharedFields<Fields>

    public init(handle: String, slug: String, file: String, photo: String, date: Date, dateText: String, utcOffset: Int, alt: String?, visibility: Visibility, draft: Bool = false, caption: Caption, photoAt: SourceLocation? = nil) {
        shared = SharedFields(Fields(handle: handle, slug: slug, id: "\(handle)/\(slug)", file: file, photo: photo, photoFile: ContentPath.postFile(handle, photo), date: date, dateText: dateText, utcOffset: utcOffset, alt: alt, visibility: visibility, draft: draft, caption: caption, photoAt: photoAt))
    }

    /// The folder name: a valid handle with a profile.
    public var handle: String { shared.fields.handle }
    /// The file name without `.md`: a valid slug.
    public var slug: String { shared.fields.slug }
    /// The file it came from, relative to the site folder.
    public var file: String { shared.fields.file }
    /// The photo's path relative to `content/posts/<handle>/`; the file exists and stays inside that folder.
    public var photo: String { shared.fields.photo }
    /// Where the post names its photo (the value of `photo:`), for the photo's errors.
    public var photoAt: SourceLocation? { shared.fields.photoAt }
    /// When it was posted, with the text and offset the author wrote, to show their local time.
    public var date: Date { shared.fields.date }
    public var dateText: String { shared.fields.dateText }
    /// Seconds east of UTC (`+09:00` is 32400); 0 when the date was written without an offset.
    public var utcOffset: Int { shared.fields.utcOffset }
    /// The photo described for people who cannot see it; nil when the post has none.
    public var alt: String? { shared.fields.alt }
    public var visibility: Visibility { shared.fields.visibility }
    /// `draft: true`: published only by `tomo serve --drafts` (and `tomo build --drafts`).
    public var draft: Bool { shared.fields.draft }
    public var caption: Caption { shared.fields.caption }

    /// `<handle>/<slug>`, the id the store and the CLI name the post by.
    public var id: String { shared.fields.id }

    /// `posts` newest first: by instant (time zones honoured, to the nanosecond), ties by id.
    /// The one order of posts, for timelines, feeds, the sitemap and `tomo post list`. Sorted by
    /// `date`, a Double; only the posts it cannot tell apart (equal dates, a run of them) have
    /// their written dates read again, each once, for their exact instants.
    public static func newestFirst(_ posts: [Post]) -> [Post] {
        // Sorting positions moves small integers; sorting the posts themselves would copy them.
        var sorted = posts.indices.sorted { posts[$0].date != posts[$1].date ? posts[$0].date > posts[$1].date : posts[$0].id < posts[$1].id }.map { posts[$0] }
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, sorted[end].date == sorted[start].date { end += 1 }
            if end - start > 1 {
                let exact = sorted[start..<end].map { (post: $0, instant: WrittenDate.exactInstant(of: $0.dateText) ?? (0, 0)) }
                // Stable: posts of the same exact instant keep their order by id.
                let ordered = exact.enumerated().sorted { a, b in
                    a.element.instant != b.element.instant ? a.element.instant > b.element.instant : a.offset < b.offset
                }
                sorted.replaceSubrange(start..<end, with: ordered.map(\.element.post))
            }
            start = end
        }
        return sorted
    }

    /// The photo's path relative to the site folder (`content/posts/alice/sunset.jpg`).
    public var photoFile: String { shared.fields.photoFile }

    /// The caption as written (Markdown, without the blank lines around it), its HTML (raw
    /// HTML and unsafe links removed) and its first line as plain text; all empty without one.
    public struct Caption: Sendable, Hashable {
        public var markdown: String
        public var html: String
        public var firstLine: String
    }
}
