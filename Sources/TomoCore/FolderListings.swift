/// The names in each input folder as the walk that stamped the site found them, so that loading
/// the site does not list (and `stat`) every folder a second time: at 10,000 users that is
/// 10,000 folders and 220,000 entries. Only a folder that could be read and holds no symbolic
/// link is kept (`InputStamps.listings`); for any other one, the loader lists the folder
/// itself, which reports what cannot be read and applies the site's rule for links (`SiteLinks`).
public struct FolderListings: Sendable {
    /// One entry of a folder: its name, and whether it is a folder.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var isFolder: Bool

        public init(name: String, isFolder: Bool) {
            self.name = name
            self.isFolder = isFolder
        }
    }

    private let byFolder: [String: [Entry]]

    /// `byFolder`: each folder kept, by path relative to the site folder, with its entries
    /// sorted by name (sorted where they were read, on the core that read them).
    public init(sorted byFolder: [String: [Entry]] = [:]) {
        self.byFolder = byFolder
    }

    /// The entries of `folder` (relative to the site folder, `content/posts/alice`), sorted by
    /// name, hidden names left out; nil when it was not kept.
    public func entries(of folder: String) -> [Entry]? {
        byFolder[folder]
    }
}
