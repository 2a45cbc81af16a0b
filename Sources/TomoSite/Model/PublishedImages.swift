import Foundation
import TomoContent
import TomoCore
import TomoImages

/// The thumbnails of every image the published content shows (icons, headers and the photos
/// of published posts), made (or found in the cache) on all cores. Given only a
/// `PublishedSite`'s content, it never reads, let alone publishes, the photo of a post that is
/// not published.
struct PublishedImages: Sendable {
    /// By the image's path in the site (`content/users/alice/icon.jpg`).
    private(set) var bySitePath: [String: PublishedImage] = [:]
    /// How many source images there are.
    var count: Int { bySitePath.count }
    /// The site icon's sizes (site.yaml's `icon`), published at `media/site-icon-…-<size>.png`;
    /// none for the theme's default icon.
    private(set) var icons: [IconMaker.Icon] = []

    /// Where the site icons are published, by name.
    static func iconPath(_ icon: IconMaker.Icon) -> String { "media/" + icon.fileName }

    /// Every image `content` shows at `date`, by its path in the site, with the handle whose
    /// media folder publishes it and where the content names it: what profiles show
    /// (`Profile.images(shownAt:)`; with no date, every image they name) and post photos.
    static func sources(of content: SiteContent, at date: Date?) -> [(path: String, handle: String, at: SourceLocation?)] {
        var sources: [(path: String, handle: String, at: SourceLocation?)] = []
        sources.reserveCapacity(content.posts.count + content.profiles.count)
        var seen = Set<String>(minimumCapacity: content.posts.count + content.profiles.count)
        // Each path is put together once (100,000 photos at 10,000 users).
        for profile in content.profiles {
            for (image, at) in date.map(profile.images(shownAt:)) ?? profile.images {
                let path = ContentPath.userFile(image)
                if seen.insert(path).inserted { sources.append((path, profile.handle, at)) }
            }
        }
        for post in content.posts {
            let path = post.photoFile
            if seen.insert(path).inserted { sources.append((path, post.handle, post.photoAt)) }
        }
        return sources
    }

    /// Processes every image of `content` (a published site's); reports every unreadable image
    /// at once. Images that `reusing` has under the same path and media folder are kept from it
    /// without being read again (the files did not change), and the ones the content no longer
    /// shows are dropped: after an edit that leaves the images as they were, this is one pass of
    /// lookups, not a new table of every thumbnail.
    /// `stamps`: the site's files as this very build stamped them, so that no image is looked
    /// up again (`tomo serve` leaves them out: its stamps are only as fresh as what its watcher
    /// reported).
    /// `processor`: one `processor(for:site:verifiesCache:)` started for this very content's
    /// settings. `verifiesCache`: cached thumbnails and icons are checked before they are used
    /// (`tomo build --full`).
    static func make(
        for content: SiteContent, at date: Date, site: URL, reusing previous: PublishedImages? = nil, stamps: InputStamps? = nil,
        processor: Background<Result<ImageProcessor, Diagnostic>>? = nil, verifiesCache: Bool = false
    ) throws(DiagnosticList) -> PublishedImages {
        var published = try publish(content, at: date, site: site, reusing: previous, stamps: stamps) { count, source, then throws(Diagnostic) in
            // Made here, only when some image is not kept, unless one was started already.
            try (processor?.value ?? newProcessor(widths: content.config.imageWidths, site: site, verifiesCache: verifiesCache)).get().process(count: count, source: source, then: then)
        }
        try published.setIcons(for: content.config, site: site) { source throws(Diagnostic) in
            try IconMaker(cacheFolder: cacheFolder(site), verifiesCache: verifiesCache).icons(of: source)
        }
        return published
    }

    /// The image processor for `config`'s settings, made on another core: it reads the cache's
    /// index (the hash and thumbnails of each of 100,000 photos at 10,000 users), which need not
    /// wait for the site to be put together. `verifiesCache`: every cached thumbnail is read and
    /// checked against its hash before it is used (`tomo build --full`).
    static func processor(for config: SiteConfig, site: URL, verifiesCache: Bool = false) -> Background<Result<ImageProcessor, Diagnostic>> {
        let widths = config.imageWidths
        return Background { newProcessor(widths: widths, site: site, verifiesCache: verifiesCache) }
    }

    private static func newProcessor(widths: [Int], site: URL, verifiesCache: Bool = false) -> Result<ImageProcessor, Diagnostic> {
        Result { () throws(Diagnostic) in try ImageProcessor(cacheFolder: cacheFolder(site), widths: widths, verifiesCache: verifiesCache) }
    }

    /// The site's image cache: `.tomo-cache/images`.
    static func cacheFolder(_ site: URL) -> URL { site.appendingPathComponent(".tomo-cache/images") }

    /// What `make` would publish, for `tomo check`: every image goes through the same tests
    /// (`ImageInspector`): each is decoded as the build will, unless the image cache shows a
    /// build made it as it is now; nothing is encoded and nothing is written (the cache is only
    /// read). The "thumbnails" are the source images themselves.
    static func inspect(for content: SiteContent, site: URL) throws(DiagnosticList) -> PublishedImages {
        var published = try publish(content, at: nil, site: site, reusing: nil, stamps: nil) { count, source, then throws(Diagnostic) in
            try ImageInspector(widths: content.config.imageWidths, cacheFolder: cacheFolder(site)).process(count: count, source: source, then: then)
        }
        try published.setIcons(for: content.config, site: site, with: IconMaker.inspect)
        return published
    }

    /// The icons of site.yaml's `icon`, made by `make` (none without one).
    private mutating func setIcons(for config: SiteConfig, site: URL, with make: (ImageSource) throws(Diagnostic) -> [IconMaker.Icon]) throws(DiagnosticList) {
        icons = []
        guard let icon = config.icon else { return }
        let path = "content/" + icon
        do {
            icons = try make(ImageSource(path: site.path + "/" + path, displayPath: path, referencedAt: config.iconAt))
        } catch {
            throw DiagnosticList([error])
        }
    }

    private static func publish(
        _ content: SiteContent, at date: Date?, site: URL, reusing previous: PublishedImages?, stamps: InputStamps?,
        with process: (
            _ count: Int, _ source: @Sendable (Int) -> ImageSource,
            _ then: @Sendable (Int, Result<ProcessedImage, Diagnostic>) -> Result<PublishedImage?, Diagnostic>
        ) throws(Diagnostic) -> [Result<PublishedImage?, Diagnostic>]
    ) throws(DiagnosticList) -> PublishedImages {
        var published = previous ?? PublishedImages()
        let sources = Self.sources(of: content, at: date)
        let toMake: [(path: String, folder: String, at: SourceLocation?)] = sources.compactMap { path, handle, at in
            let folder = "media/" + handle
            return published.bySitePath[path]?.folder == folder ? nil : (path, folder, at)
        }
        if sources.count - toMake.count < published.count { published.keepOnly(sources) }
        guard !toMake.isEmpty else { return published }
        let made: [Result<PublishedImage?, Diagnostic>]
        let root = site.path + "/"
        // Each source, and each image's output paths, made on the core that looks the image up.
        do {
            let byPath = stamps?.byPath
            made = try process(toMake.count, { index in
                let (path, _, at) = toMake[index]
                return ImageSource(path: root + path, displayPath: path, referencedAt: at, stamp: byPath?[path])
            }, { index, result in
                result.map { PublishedImage($0, folder: toMake[index].folder) }
            })
        } catch {
            throw DiagnosticList([error])
        }
        var problems: [Diagnostic] = []
        published.bySitePath.reserveCapacity(published.bySitePath.count + toMake.count)
        for (entry, result) in zip(toMake, made) {
            switch result {
            case .success(let image):
                if let image { published.bySitePath[entry.path] = image }
            case .failure(let error):
                problems.append(error)
            }
        }
        ProcessMemory.releaseElsewhere((consume sources, consume toMake, consume made))
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return published
    }

    /// Drops the images `sources` does not show in the folder it names (a post hidden, made
    /// private or deleted).
    private mutating func keepOnly(_ sources: [(path: String, handle: String, at: SourceLocation?)]) {
        let shown = Dictionary(sources.map { ($0.path, "media/" + $0.handle) }, uniquingKeysWith: { first, _ in first })
        bySitePath = bySitePath.filter { shown[$0.key] == $0.value.folder }
    }

    /// Every file to publish (`media/alice/icon-3fa01c9e-256.webp`, the site icons) with its
    /// cached file, each path once: the site icons, then folder by folder, each folder's images
    /// in the order of their paths in the site, then its files of `beside` (share cards, by
    /// output path: a thumbnail at the same path keeps it). Where two images publish one path
    /// (the same name and content in one media folder) the first names the file. Made when a
    /// plan asks, not kept: a table of 600,000 thumbnails held for the whole build (and the
    /// preview's life) cost more memory than anything else it holds.
    func publishedFiles(beside: [String: String] = [:]) -> [(path: String, file: CachedFilePath)] {
        var files: [(path: String, file: CachedFilePath)] = icons.map { (Self.iconPath($0), CachedFilePath(head: $0.path)) }
        files.reserveCapacity(bySitePath.reduce(files.count + beside.count) { $0 + $1.value.files.count })
        // Images are sorted, not their 600,000 files; a path can be published twice only
        // within one folder.
        // Each image by its place in the table, not copied (100,000 of them).
        typealias Place = [String: PublishedImage].Index
        var byFolder: [String: (images: [Place], beside: [String: String])] = [:]
        for place in bySitePath.indices { byFolder[bySitePath[place].value.folder, default: ([], [:])].images.append(place) }
        for (path, file) in beside { byFolder[Self.folder(of: path), default: ([], [:])].beside[path] = file }
        var inFolder: Set<String> = []
        for (_, folder) in byFolder.sorted(by: { $0.key < $1.key }) {
            inFolder.removeAll(keepingCapacity: true)
            for place in folder.images.sorted(by: { bySitePath[$0].key < bySitePath[$1].key }) {
                for file in bySitePath[place].value.files where inFolder.insert(file.path).inserted { files.append(file) }
            }
            for (path, file) in folder.beside.sorted(by: { $0.key < $1.key }) where !inFolder.contains(path) {
                files.append((path, CachedFilePath(head: file)))
            }
        }
        return files
    }

    /// `media/alice` for `media/alice/card-3fa01c9e.jpg`.
    private static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// A digest of the media folder each profile's image is published in. An image two users
    /// show is published in the first one's folder, and moves to the other's when the first
    /// stops showing it: that changes the other's pages though their file did not change, so a
    /// build that finds this digest changed makes every fingerprint again. (A post's photo lies
    /// inside its post's folder and is published in its owner's media folder, whoever else
    /// shows it.)
    var ownersDigest: UInt64 {
        var digest: UInt64 = 0
        let users = ContentPath.usersFolder + "/"
        for (path, image) in bySitePath where path.hasPrefix(users) {
            var hasher = StableHasher()
            hasher.add(path)
            hasher.add(image.folder)
            // `&+ 1`: how many there are is part of the sum.
            digest &+= hasher.value &+ 1
        }
        return digest
    }

    /// Whether `other` publishes the files this one does: the same images, each at the same
    /// paths, and the same site icons. (False may still mean the same paths, which only costs
    /// a plan made anew.)
    func publishesSamePaths(as other: PublishedImages) -> Bool {
        bySitePath.count == other.bySitePath.count
            && icons.map(Self.iconPath) == other.icons.map(Self.iconPath)
            && bySitePath.allSatisfy { sitePath, image in
                other.bySitePath[sitePath].map { $0.files.elementsEqual(image.files) { $0.path == $1.path } } ?? false
            }
    }

    /// The images (by path in the site) published differently in `other`, or in one only.
    func changedPaths(comparedWith other: PublishedImages) -> Set<String> {
        var changed: Set<String> = []
        for (path, image) in bySitePath where other.bySitePath[path]?.path != image.path { changed.insert(path) }
        for path in other.bySitePath.keys where bySitePath[path] == nil { changed.insert(path) }
        return changed
    }
}
