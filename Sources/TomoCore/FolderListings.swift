/// The names in each input folder as the walk that stamped the site found them, so that loading
/// the site does not list (and `stat`) every folder a second time: at 10,000 users that is
/// 10,000 folders and 220,000 entries. Only a folder that could be read and holds no symbolic
/// link is kept; for any other one, the loader lists the folder itself, which reports what
/// cannot be read and applies the site's rule for links (`SiteLinks`).
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

    private var byFolder: [String: [Entry]] = [:]

    public init() {}

    /// The entries of `folder` (relative to the site folder, `content/posts/alice`), sorted by
    /// name, hidden names left out; nil when it was not kept.
    public func entries(of folder: String) -> [Entry]? {
        byFolder[folder]
    }

    /// Keeps `entries` (from `FolderEntries.read`, links not followed) as the listing of
    /// `folder`, unless one of them is a link.
    public mutating func keep(_ entries: [FolderEntries.Entry], of folder: String) {
        guard !entries.contains(where: { $0.status.isLink }) else { return }
        byFolder[folder] = entries.map { Entry(name: $0.name, isFolder: $0.status.isFolder) }.sorted { $0.name < $1.name }
    }

    /// Adds the folders `other` kept (each folder is walked once, by one part of a walk).
    public mutating func merge(_ other: FolderListings) {
        byFolder.merge(other.byFolder) { first, _ in first }
    }
}
