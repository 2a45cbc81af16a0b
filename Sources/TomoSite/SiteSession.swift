import Foundation
import Synchronization
import TomoContent
import TomoCore
import TomoStore
import TomoTemplates

/// A site kept in memory between rebuilds, for `tomo serve`: the last good inputs and a digest
/// of every output file, so that after an edit only the files that read what changed are made
/// again, and only those whose bytes changed are handed on (the server keeps the bytes). A
/// failed rebuild keeps the last good site; the next good one catches up on every change made
/// in between.
///
/// Each made file is handed on as an `Output` that `finish` makes from its bytes on the thread
/// that rendered it: `tomo serve` makes the served file there, so a large site's pages are not
/// held twice (made, then copied by the server).
public final class SiteSession<Output: Sendable>: @unchecked Sendable {
    /// What a (re)build produced.
    public struct Update: Sendable {
        /// The new and changed files (every file when `isWhole`), by path.
        public var files: [String: Output]
        /// The whole site was made: `files` holds all of it.
        public var isWhole: Bool
        /// How many files the site has.
        public var fileCount: Int
        /// Files whose bytes are new or changed (every file when `isWhole`).
        public var changed: Set<String> { Set(files.keys) }
        /// Files that are gone.
        public var removed: Set<String>
        /// How many files were made again (the rest were kept).
        public var made: Int
        public var seconds: Double
        public var warnings: [Diagnostic]
    }

    private let options: BuildOptions
    /// Turns a made file into what is handed on; applied as each file is made.
    private let finish: @Sendable (_ path: String, _ bytes: [UInt8]) -> Output
    // Touched only by the one thread that runs builds (the serve loop), hence @unchecked.
    private var digests: [String: FileDigest] = [:]
    /// The last good inputs (everything the files say), the model of what of them is published,
    /// with its thumbnails, its plan and the fingerprints of its inputs; the plan is reused
    /// while the site's shape stays the same.
    private var inputs: SiteInputs?
    private var model: SiteModel?
    /// The image cache folder (device and inode) the last model's thumbnails lie in: one
    /// deleted since (`rm -rf .tomo-cache`, which the preview must survive) holds none of them.
    private var imageCache: [UInt64]?
    private var plan: [PlannedFile] = []
    /// Which files of `plan` read each input; nil until `indexReaders` makes it for the plan.
    private var readers: ReaderIndex?
    private var fingerprints: [InputKey: UInt64] = [:]
    private var stamps = InputStamps()
    /// What to read again, gathered since the last good build (kept across failed rebuilds).
    private var reload = ContentReload(everything: true)
    /// The date the last good build showed items at (see `rebuild`).
    private var buildDate: Date
    /// The date of the latest post of the last good inputs (nil: no post): a post dated before
    /// two build dates is published at both, so a rebuild at a new date looks at the posts only
    /// when one is dated after the earlier of the two.
    private var latestPostDate: Date?
    /// The first moment after the last good build at which an item appears or disappears
    /// (`from`/`until`) or a post is published: a rebuild at or after it, with that date, shows
    /// the change.
    public private(set) var nextChange: Date?

    public init(options: BuildOptions, finish: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) -> Output) {
        self.options = options
        self.finish = finish
        buildDate = options.buildDate
    }

    /// Builds the whole site into memory, showing items at `buildDate` (see `rebuild`).
    public func buildAll(buildDate: Date? = nil) throws(DiagnosticList) -> Update {
        forgetOutputs()
        return try rebuild(changedPaths: [], buildDate: buildDate)
    }

    /// Forgets which files were made and how they read: the next (re)build makes every file
    /// and hands all of them on, as the first build does. For a caller that lost what it was
    /// handed (`tomo serve`, whose stored files were deleted).
    public func forgetOutputs() {
        model = nil
        digests = [:]
        reload = ContentReload(everything: true)
    }

    /// Indexes which files of the current plan read each input, unless that is done: later
    /// rebuilds then look only at the readers of what changed, not at every planned file.
    /// Separate from `rebuild` so that a caller can index once the files a build handed on
    /// are let go (the preview, after publishing them), and not on top of them.
    public func indexReaders() {
        if readers == nil { readers = ReaderIndex(of: plan) }
    }

    /// Rebuilds after the files at `changedPaths` (relative to the site folder) changed, showing
    /// the items with `from`/`until` that `buildDate` is inside (nil: the last build's date, at
    /// first the options' one); a page whose items appeared or went since is made again too.
    public func rebuild(changedPaths: [String], buildDate: Date? = nil) throws(DiagnosticList) -> Update {
        let date = buildDate ?? self.buildDate
        let clock = ContinuousClock()
        let start = clock.now
        reload.add(changedPaths, content: inputs?.content)
        // A post whose date lies between the last build's and this one is published at one of
        // them only: its pages, feeds and counts are made again as if its file had changed.
        if let posts = inputs?.content.posts, date != self.buildDate, let latestPostDate, latestPostDate > min(date, self.buildDate) {
            for post in posts where PublishedSite.isDue(post, at: date, options: options) != PublishedSite.isDue(post, at: self.buildDate, options: options) {
                reload.posts.insert(post.id)
            }
        }
        // So is a profile with an item whose `from` or `until` lies between them: it shows
        // another item, and another item's icon.
        if let moments = model?.published.itemMoments, date != self.buildDate {
            let (earlier, later) = (min(date, self.buildDate), max(date, self.buildDate))
            for (handle, dates) in moments where dates.contains(where: { $0 > earlier && $0 <= later }) { reload.profiles.insert(handle) }
        }
        var partly: SiteInputs?
        if !reload.everything, model != nil, let current = inputs {
            partly = try reloaded(current)
        }
        let next: SiteInputs
        let everything: Bool
        if let partly {
            next = partly
            everything = false
            stamps.restamp(reload.paths, site: options.site)
        } else {
            reload.everything = true
            everything = true
            stamps = InputStamps.scan(site: options.site)
            // Not through the parsed files' cache: holding it while the site loads would raise
            // the preview's peak memory, which matters more here than a faster first load.
            next = try SiteInputs.load(options)
        }

        // The graph (followers, blocks, likes, hidden posts) depends only on the store and who
        // has a profile (the same unless everything was read again); the published posts and
        // their index on the graph and the posts. After a profile edit all of them stay.
        let sameGraph = !everything && !reload.store
        let samePosts = sameGraph && reload.posts.isEmpty && reload.postFolders.isEmpty
        let published = PublishedSite(next, options: options, at: date, reusing: model.map {
            PublishedSite.Reuse(previous: $0.published, graph: sameGraph, posts: samePosts, rereadProfiles: everything ? nil : reload.profiles)
        })
        // A profile edit that keeps the images its page shows (icon, header, links' and shown
        // items' icons) shows the same ones. Both sides are the published profiles: the file's
        // own list still has the items it hides.
        let cacheKept = imageCache != nil && imageCache == Self.imageCacheIdentity(site: options.site)
        let sameImages = cacheKept && samePosts && !reload.images && reload.profiles.allSatisfy { handle in
            model.flatMap { last in last.profile(handle).map { Self.images($0, at: last.buildDate) } } == published.profile(handle).map { Self.images($0, at: date) }
        }
        let images = try publishedImages(for: published, at: date, sameImages: sameImages, cacheKept: cacheKept)
        imageCache = Self.imageCacheIdentity(site: options.site)
        // Every card is named again (cheap); only the ones showing something new are drawn.
        let cards = try PublishedCards.make(for: published.content, images: images, site: options.site, reusing: model?.cards)
        let nextModel = SiteModel(published: published, images: images, cards: cards, buildDate: date, sitemapLimit: options.sitemapLimit, posts: samePosts ? model?.posts : nil)
        let (fingerprintUpdate, changed) = try fingerprints(of: nextModel, sameImages: sameImages)

        // The first build makes every file; later ones, whether they read a few files again or
        // the whole site, make the files that read a changed input, as `tomo build` does.
        let isWhole = model == nil
        let samePlan = model.map { ChangeEngine.planStillHolds(changed: changed, before: $0, after: nextModel, sameImages: sameImages) } == true
        let nextPlan = samePlan ? plan : try SitePlan.files(for: nextModel, expectedCount: plan.count)
        let toMake = isWhole
            ? (make: nextPlan, gone: [])
            : ChangeEngine.filesToMake(nextPlan, changed: changed, kept: digests, readers: samePlan ? readers : nil)
        // After a small edit the cards the last rebuild made are taken over, as its pages'
        // files are (those that read nothing that changed); a large one starts afresh.
        let takesOver = !isWhole && toMake.make.count <= SharedViews.takenOverLimit
        if takesOver, let model { nextModel.views.takeOver(from: model.views, unless: changed) }
        let made = try render(toMake.make, model: nextModel)
        // The cards kept for these files are not needed again unless the next model takes
        // them over: a whole site's are let go.
        if !takesOver { nextModel.views.forgetSharedViews() }

        // Only now, with every file made, does the session move on to the new site. A whole
        // build hands on the tables it made as they are: copying 467,086 files' entries into
        // new ones would hold both at the preview's peak.
        var changedFiles: [String: Output] = [:]
        if isWhole {
            changedFiles = made.outputs
            digests = made.digests
        } else {
            for (path, digest) in made.digests where digests[path] != digest {
                changedFiles[path] = made.outputs[path]
                digests[path] = digest
            }
        }
        let removed = Set(toMake.gone)
        for path in removed { digests[path] = nil }
        if !samePlan {
            plan = nextPlan
            readers = nil
        }
        // The last model and inputs are let go on another core: freeing their tables took 2 ms
        // of each rebuild of a 10,000-user site.
        let replaced = (model, inputs)
        model = nextModel
        inputs = next
        ProcessMemory.releaseElsewhere(replaced)
        if reload.everything || !reload.posts.isEmpty || !reload.postFolders.isEmpty {
            latestPostDate = next.content.posts.lazy.map(\.date).max()
        }
        // In place: nothing else holds the table now.
        fingerprintUpdate.apply(to: &fingerprints)
        reload = ContentReload()
        self.buildDate = date
        nextChange = TimedItems.nextChange(after: date, in: nextModel.published)
        let elapsed = clock.now - start
        return Update(
            files: changedFiles,
            isWhole: isWhole,
            fileCount: digests.count,
            removed: removed,
            made: toMake.make.count,
            seconds: elapsed.seconds,
            warnings: next.warnings
        )
    }

    /// `current` with only what `reload` names read again; nil when the whole site must be read.
    /// A profile that appeared or went changes which pages and posts may exist: then the whole
    /// site is read, as a build does, so that the same rules (a page named like a user, posts
    /// without a profile) apply.
    private func reloaded(_ current: SiteInputs) throws(DiagnosticList) -> SiteInputs? {
        var next = current
        var problems: [Diagnostic] = []
        var reread: [(prefix: String, warnings: [Diagnostic])] = []
        /// Takes what reading the files under `prefix` again reported: their errors stop the
        /// rebuild, their warnings replace the ones those files had.
        func absorb(_ diagnostics: [Diagnostic], from prefix: String) {
            problems += diagnostics.filter { $0.severity == .error }
            reread.append((prefix, diagnostics.filter { $0.severity == .warning }))
        }
        for handle in reload.profiles.sorted() {
            let (profile, diagnostics) = ContentLoader.loadProfile(site: options.site, handle: handle)
            let old = next.content.profiles.first { $0.handle == handle }
            if (old == nil) != (profile == nil), !diagnostics.contains(where: { $0.severity == .error }) { return nil }
            absorb(diagnostics, from: ContentPath.profileFile(handle, format: ""))
            next.content.profiles.replace(handle, by: \.handle, with: profile)
        }
        for handle in reload.postFolders.sorted() {
            let (posts, diagnostics) = ContentLoader.loadPosts(site: options.site, of: handle)
            absorb(diagnostics, from: ContentPath.postsFolder(of: handle) + "/")
            next.content.posts.removeAll { $0.handle == handle }
            next.content.posts = (next.content.posts + posts).sorted { $0.id < $1.id }
        }
        for id in reload.posts.sorted() where !reload.postFolders.contains(where: { id.hasPrefix($0 + "/") }) {
            let (post, diagnostics) = ContentLoader.loadPost(site: options.site, id: id)
            absorb(diagnostics, from: ContentPath.postsFolder + "/\(id).")
            next.content.posts.replace(id, by: \.id, with: post)
        }
        // A post read again, or one of a profile read again, may show its owner's private
        // address, as a whole load finds.
        let rechecked = reload.profiles.union(reload.postFolders)
        if !rechecked.isEmpty || !reload.posts.isEmpty {
            let rereadPosts = reload.posts
            let posts = next.content.posts.lazy.filter { rechecked.contains($0.handle) || rereadPosts.contains($0.id) }
            problems += ContentLoader.privateAddressProblems(in: posts, addresses: ContentLoader.privateAddresses(of: next.content.profiles), site: options.site)
        }
        if reload.pages {
            let (pages, diagnostics) = ContentLoader.loadPages(site: options.site, handles: Set(next.content.profiles.map(\.handle)))
            absorb(diagnostics, from: ContentPath.pagesFolder + "/")
            next.content.pages = pages
        }
        if reload.theme {
            next.theme = try SiteInputs.loadTheme(options)
        }
        if reload.rootFiles {
            next.rootFolder = try RootFolder.load(site: options.site)
        }
        if reload.store {
            do {
                next.store = try StoreFile(site: options.site).readForBuild()
            } catch {
                problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems.sorted(by: Diagnostic.isOrderedBefore)) }
        next.warnings = Self.warnings(next.warnings, replacing: reread)
        return next
    }

    /// `warnings` with those of the files under each prefix replaced by what reading them again
    /// gave; the very same array when that is what they were, as after most edits: a site with
    /// a warning for each of its 10,000 users copied them all on every rebuild.
    static func warnings(_ warnings: [Diagnostic], replacing reread: [(prefix: String, warnings: [Diagnostic])]) -> [Diagnostic] {
        guard !reread.isEmpty else { return warnings }
        // Compared as bytes: `hasPrefix` on each of 10,000 warnings took 4 ms.
        let prefixes = reread.map { Array($0.prefix.utf8) }
        func isReread(_ warning: Diagnostic) -> Bool {
            guard let file = warning.location?.file else { return false }
            return file.utf8.withContiguousStorageIfAvailable { bytes in
                prefixes.contains { bytes.starts(with: $0) }
            } ?? prefixes.contains { file.utf8.starts(with: $0) }
        }
        let fresh = reread.flatMap(\.warnings)
        if warnings.filter(isReread) == fresh { return warnings }
        return warnings.filter { !isReread($0) } + fresh
    }

    private static func images(_ profile: Profile, at date: Date) -> [String] { profile.images(shownAt: date).map(\.path) }

    /// The device and inode of the site's image cache folder, nil when there is none.
    private static func imageCacheIdentity(site: URL) -> [UInt64]? {
        var status = stat()
        guard stat(PublishedImages.cacheFolder(site).path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// The thumbnails of what `published` shows: made again (from the cache) when an image file
    /// changed; when only which images are shown may differ (a post or profile edited, hidden
    /// or made private), the kept ones are reused and only new images are read.
    /// `cacheKept`: the image cache is the one the kept thumbnails lie in (else all are looked
    /// up again, and those it lost are made again).
    private func publishedImages(for published: PublishedSite, at date: Date, sameImages: Bool, cacheKept: Bool) throws(DiagnosticList) -> PublishedImages {
        guard let current = model?.images, cacheKept, !reload.everything, !reload.images else {
            return try PublishedImages.make(for: published.content, at: date, site: options.site)
        }
        return sameImages ? current : try PublishedImages.make(for: published.content, at: date, site: options.site, reusing: current)
    }

    /// How the fingerprints of the last model change for `next`, and the keys that changed: the
    /// last model's brought up to date with what was read again (checked against all of them
    /// made anew in debug builds, `InputFingerprints.check`).
    /// `sameImages`: `next` has the very thumbnail table of the last model.
    private func fingerprints(of next: SiteModel, sameImages: Bool) throws(DiagnosticList) -> (InputFingerprints.Update, changed: Set<InputKey>) {
        guard let model else { return (.whole(InputFingerprints.of(next, stamps: stamps)), []) }
        let changedImages = sameImages ? [] : next.images.changedPaths(comparedWith: model.images)
        let update = InputFingerprints.updated(fingerprints, to: next, stamps: stamps, reload: reload, changedImages: changedImages, lastBuildDate: model.buildDate)
        try InputFingerprints.check(update, of: fingerprints, model: next, stamps: stamps, who: "tomo serve")
        return (update, update.changedKeys(from: fingerprints))
    }

    /// Makes `plan`'s files on all cores: each file's digest and its output, by path.
    private func render(_ plan: [PlannedFile], model: SiteModel) throws(DiagnosticList) -> (digests: [String: FileDigest], outputs: [String: Output]) {
        // Sized for every file at once: grown by doubling, a table of 467,086 files would hold
        // its old and new storage together at the preview's peak.
        let results = Mutex<(digests: [String: FileDigest], outputs: [String: Output])>(
            ([String: FileDigest](minimumCapacity: plan.count), [String: Output](minimumCapacity: plan.count))
        )
        let finish = self.finish
        try SiteRenderer.forEach(plan) { file throws(Diagnostic) in
            let bytes = try SiteRenderer.bytes(of: file, model: model)
            let digest = FileDigest(of: bytes)
            let output = finish(file.path, bytes)
            results.withLock {
                $0.digests[file.path] = digest
                $0.outputs[file.path] = output
            }
        }
        return results.withLock { $0 }
    }
}

extension Array {
    /// Puts `element` where the element with this `key` is (or removes it when `element` is nil),
    /// keeping the array sorted by key; an edit replaces in place instead of sorting everything.
    fileprivate mutating func replace(_ key: String, by keyOf: (Element) -> String, with element: Element?) {
        if let index = firstIndex(where: { keyOf($0) == key }) {
            if let element { self[index] = element } else { remove(at: index) }
        } else if let element {
            insert(element, at: firstIndex(where: { keyOf($0) > key }) ?? endIndex)
        }
    }
}

extension SiteSession where Output == [UInt8] {
    /// A session that hands on the made bytes as they are.
    public convenience init(options: BuildOptions) {
        self.init(options: options) { $1 }
    }
}
