import TomoCore

/// Everything one share card shows (a 1200×630 link-preview image): the card is named by a hash
/// of exactly these fields, so it is made again when, and only when, one of them changes.
public struct ShareCard: Sendable, Hashable {
    public enum Layout: String, Sendable {
        /// The header filling the card (or a plain background), the icon, the name, `@handle`
        /// and the bio's first line.
        case profile
        /// The photo as a square on the left; the caption, and the owner's icon, name and
        /// `@handle` beside it.
        case post
    }

    /// An image the card shows: its files at one or more sizes, and what names its content.
    public struct Picture: Sendable, Hashable {
        /// One file of the picture (a cached thumbnail), by absolute path, with its pixel size.
        public struct File: Sendable, Hashable {
            public var path: String
            public var width: Int
            public var height: Int

            public init(path: String, width: Int, height: Int) {
                self.path = path
                self.width = width
                self.height = height
            }
        }

        /// The same picture at each size there is, in any order.
        public var files: [File]
        /// A name that changes whenever the picture does (a published thumbnail's name carries
        /// a hash of its bytes), for the card's hash: the paths alone need not change.
        public var identity: String

        public init(files: [File], identity: String) {
            self.files = files
            self.identity = identity
        }

        /// A picture with one file; its size is read when it is drawn.
        public init(path: String, identity: String) {
            self.init(files: [File(path: path, width: 0, height: 0)], identity: identity)
        }

        /// The smallest file that fills a `width` × `height` box without being enlarged (a
        /// smaller file decodes and scales faster, and the box looks the same); the largest
        /// when none does.
        func path(filling width: Int, _ height: Int) -> String? {
            let byArea = files.sorted { $0.width * $0.height < $1.width * $1.height }
            return (byArea.first { $0.width >= width && $0.height >= height } ?? byArea.last)?.path
        }
    }

    public var layout: Layout
    /// The header of a profile, the photo of a post.
    public var picture: Picture?
    /// The profile's icon, or the post owner's.
    public var icon: Picture?
    /// The display name, or the caption's first line.
    public var title: String
    /// The display name of a post's owner; empty for a profile.
    public var name: String
    /// Without the `@`.
    public var handle: String
    /// The bio's first line; empty for a post.
    public var text: String
    /// The BCP 47 tag of the texts' language (the profile's, or the post owner's), which picks
    /// how Han characters are drawn (Japanese, Korean, simplified or traditional Chinese forms).
    public var language: String

    public init(layout: Layout, picture: Picture?, icon: Picture?, title: String, name: String, handle: String, text: String, language: String) {
        self.language = language
        self.layout = layout
        self.picture = picture
        self.icon = icon
        self.title = title
        self.name = name
        self.handle = handle
        self.text = text
    }

    /// The SHA-256 (hex) of every field, the drawing code's version and libvips'.
    func key(drawing version: Int, libvips: String) -> String {
        // Each field prefixed by its length, so no two cards' fields can run together the same way.
        let fields = [
            "tomo share card \(version)", libvips, layout.rawValue,
            picture?.identity ?? "", icon?.identity ?? "", title, name, handle, text, language,
        ]
        let canonical = fields.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
        return SHA256.hex(of: Array(canonical.utf8))
    }
}
