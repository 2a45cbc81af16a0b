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
        /// Only stylesheets changed: a browser can swap them without reloading the page.
        public var onlyStylesheets: Bool
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
    /// The last good inputs (everything the files say), and the model of what of them is
    /// published, with its thumbnails, and plan; the plan is reused while the site's shape stays
    /// the same.
    private var inputs: SiteInputs?
    private var model: SiteModel?
    private var plan: [PlannedFile] = []
    /// Inputs changed since the last good build (kept across failed rebuilds).
    private var pending: Set<InputKey> = []
    /// An image file changed since the last good build.
    private var imagesChanged = false
    /// `content/store.json` changed since the last good build.
    private var storeChanged = false
    /// A profile appeared or went since the last good build.
    private var shapeChanged = false
    /// For each input, the indices in `plan` of the files that read it.
    private var readers: [InputKey: [Int]] = [:]
    private var needsEverything = true
    /// The date the last good build showed items at (see `rebuild`).
    private var buildDate: Date
    /// The first moment after the last good build at which an item appears or disappears
    /// (`from`/`until`): a rebuild at or after it, with that date, shows the change.
    public private(set) var nextChange: Date?

    public init(options: BuildOptions, finish: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) -> Output) {
        self.options = options
        self.finish = finish
        buildDate = options.buildDate
    }

    /// Builds the whole site into memory, showing items at `buildDate` (see `rebuild`).
    public func buildAll(buildDate: Date? = nil) throws(DiagnosticList) -> Update {
        needsEverything = true
        return try rebuild(changedPaths: [], buildDate: buildDate)
    }

    /// Rebuilds after the files at `changedPaths` (relative to the site folder) changed, showing
    /// the items with `from`/`until` that `buildDate` is inside (nil: the last build's date, at
    /// first the options' one); a page whose items appeared or went since is made again too.
    public func rebuild(changedPaths: [String], buildDate: Date? = nil) throws(DiagnosticList) -> Update {
        let date = buildDate ?? self.buildDate
        let clock = ContinuousClock()
        let start = clock.now
        classify(changedPaths)
        let next: SiteInputs
        if let current = inputs, model != nil, !needsEverything {
            next = try reload(current)
        } else {
            needsEverything = true
            next = try SiteInputs.load(options)
        }

        // The graph (followers, blocks, likes, hidden posts) depends only on the store and who
        // has a profile; the published posts and their index on the graph and the posts. After
        // a profile edit all of them stay.
        let sameGraph = !needsEverything && model != nil && !storeChanged && !shapeChanged
        let samePosts = sameGraph && !pending.contains(.anyPost)
        let published = PublishedSite(next, graph: sameGraph ? model?.graph : nil, posts: samePosts ? model?.content.posts : nil)
        let images = try publishedImages(for: published, samePosts: samePosts)
        let nextModel = SiteModel(published: published, images: images, buildDate: date, posts: samePosts ? model?.posts : nil)
        pending.formUnion(TimedItems.profilesChanged(between: self.buildDate, and: date, in: nextModel.content).map(InputKey.profile))
        if let model, !sameGraph {
            // The pages showing a follow, block, like or hidden post that changed.
            let before = InputFingerprints.ofGraph(model)
            let after = InputFingerprints.ofGraph(nextModel)
            for (key, fingerprint) in after where before[key] != fingerprint { pending.insert(key) }
            for key in before.keys where after[key] == nil { pending.insert(key) }
        }
        // Which files exist changes only with the graph, the posts, the pages, the theme's files
        // or the thumbnails; otherwise the last plan still lists every file.
        let samePlan = samePosts && !imagesChanged && !pending.contains(.pageList) && !pending.contains(.theme) && !pending.contains(.site)
            && model.map { Set($0.theme.staticFiles.keys) == Set(next.theme.staticFiles.keys) } == true
        if !samePlan {
            plan = SitePlan.files(for: nextModel)
            readers = [:]
            for (index, file) in plan.enumerated() {
                for key in Set(file.inputs) { readers[key, default: []].append(index) }
            }
            pending.insert(.siteShape)
        }
        let toMake: [PlannedFile]
        if needsEverything {
            toMake = plan
        } else {
            // The files that read a changed input, and the files that are new.
            var indices = Set(pending.flatMap { readers[$0] ?? [] })
            if !samePlan {
                for (index, file) in plan.enumerated() where digests[file.path] == nil { indices.insert(index) }
            }
            toMake = indices.sorted().map { plan[$0] }
        }
        let everything = needsEverything
        let made = try render(toMake, model: nextModel)

        var changed: [String: Output] = [:]
        for (path, (digest, output)) in made {
            guard everything || digests[path] != digest else { continue }
            changed[path] = output
            digests[path] = digest
        }
        var removed: Set<String> = []
        if !samePlan {
            removed = Set(digests.keys).subtracting(plan.map(\.path))
            for path in removed { digests[path] = nil }
        }

        model = nextModel
        inputs = next
        pending = []
        imagesChanged = false
        storeChanged = false
        shapeChanged = false
        needsEverything = false
        self.buildDate = date
        nextChange = TimedItems.nextChange(after: date, in: nextModel.content)
        let elapsed = clock.now - start
        return Update(
            files: changed,
            isWhole: everything,
            fileCount: digests.count,
            removed: removed,
            onlyStylesheets: !everything && !changed.isEmpty && removed.isEmpty && changed.keys.allSatisfy { $0.hasSuffix(".css") },
            made: toMake.count,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            warnings: next.warnings
        )
    }

    /// Turns changed file paths into the inputs they feed.
    private func classify(_ paths: [String]) {
        for path in paths {
            let parts = path.split(separator: "/").map(String.init)
            switch (parts.first, parts.count > 1 ? parts[1] : nil) {
            case ("content", "users"?):
                if parts.count == 3, let handle = Self.profileHandle(parts[2]) {
                    // Whether other pages are touched too is known once the file is read.
                    pending.insert(.profile(handle))
                } else if Self.isImage(path) {
                    // An image beside the profiles: the thumbnails are made again from the cache.
                    pending.insert(.anyProfile)
                    imagesChanged = true
                }
                // Anything else there is no content (an editor's or sed's temporary file).
            case ("content", "posts"?):
                if parts.count == 3 {
                    // A user's posts folder made, removed, moved or linked elsewhere, whole.
                    needsEverything = true
                } else if parts.count == 4, parts[3].hasSuffix(".md") {
                    pending.formUnion([.post("\(parts[2])/\(parts[3].dropLast(3))"), .postsOf(parts[2]), .anyPost])
                } else if Self.isImage(path) {
                    // A photo beside the posts.
                    pending.insert(.anyPost)
                    imagesChanged = true
                }
            case ("content", "pages"?):
                pending.formUnion([.pageList])
            case ("content", "store.json"?):
                storeChanged = true
            case ("templates", "static"?):
                pending.insert(.staticFile(parts.dropFirst().joined(separator: "/")))
            case ("templates", _):
                pending.insert(.theme)
            default:
                needsEverything = true
            }
        }
    }

    private static func images(_ profile: Profile) -> [String?] {
        [profile.icon, profile.header]
    }

    private static func isImage(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return ContentLoader.imageExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    private static func profileHandle(_ fileName: String) -> String? {
        guard fileName.hasSuffix(".yaml") || fileName.hasSuffix(".json") else { return nil }
        return String(fileName.dropLast(5))
    }

    /// `current` with only the changed parts read again.
    private func reload(_ current: SiteInputs) throws(DiagnosticList) -> SiteInputs {
        var next = current
        var problems: [Diagnostic] = []
        var warnings = next.warnings
        /// Takes what reading the files under `prefix` again reported: their errors stop the
        /// rebuild, their warnings replace the ones those files had.
        func absorb(_ diagnostics: [Diagnostic], from prefix: String) {
            problems += diagnostics.filter { $0.severity == .error }
            warnings.removeAll { $0.location?.file.hasPrefix(prefix) == true }
            warnings += diagnostics.filter { $0.severity == .warning }
        }
        for key in pending {
            guard case .profile(let handle) = key else { continue }
            let (profile, diagnostics) = ContentLoader.loadProfile(site: options.site, handle: handle)
            absorb(diagnostics, from: "content/users/\(handle).")
            let old = next.content.profiles.first { $0.handle == handle }
            if old?.card != profile?.card {
                // New, gone, or shown differently on other pages.
                pending.formUnion([.card(handle), .anyProfile])
            }
            if (old == nil) != (profile == nil) { shapeChanged = true }
            if old.map(Self.images) != profile.map(Self.images) { imagesChanged = true }
            next.content.profiles.replace(handle, by: \.handle, with: profile)
        }
        for key in pending {
            guard case .post(let id) = key else { continue }
            let (post, diagnostics) = ContentLoader.loadPost(site: options.site, id: id)
            absorb(diagnostics, from: "content/posts/\(id).")
            let old = next.content.posts.first { $0.id == id }
            if old?.photo != post?.photo { imagesChanged = true }
            next.content.posts.replace(id, by: \.id, with: post)
        }
        if pending.contains(.pageList) {
            let (pages, diagnostics) = ContentLoader.loadPages(site: options.site, handles: Set(next.content.profiles.map(\.handle)))
            absorb(diagnostics, from: "content/pages/")
            next.content.pages = pages
        }
        if pending.contains(.theme) || pending.contains(where: { if case .staticFile = $0 { return true } else { return false } }) {
            next.theme = try SiteInputs.loadTheme(options, language: next.content.config.language.rawValue)
        }
        if storeChanged {
            do {
                next.store = try StoreFile(site: options.site).read()
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        next.warnings = warnings
        return next
    }

    /// The thumbnails of what `published` shows. They are made again from the cache when an
    /// image file changed; otherwise, when the published posts may differ (a post edited,
    /// hidden or made private), the kept ones are reused and only new images are read.
    private func publishedImages(for published: PublishedSite, samePosts: Bool) throws(DiagnosticList) -> PublishedImages {
        guard let current = model?.images, !needsEverything else {
            return try PublishedImages.make(for: published.content, site: options.site)
        }
        guard imagesChanged else {
            return samePosts ? current : try PublishedImages.make(for: published.content, site: options.site, reusing: current)
        }
        let after = try PublishedImages.make(for: published.content, site: options.site)
        // A profile or post whose image now has other thumbnails shows them.
        let changedImage = { (path: String) in current.bySitePath[path]?.path != after.bySitePath[path]?.path }
        for profile in published.content.profiles where [profile.icon, profile.header].compactMap({ $0 }).contains(where: { changedImage("content/users/" + $0) }) {
            pending.formUnion([.profile(profile.handle), .card(profile.handle), .anyProfile])
        }
        for post in published.content.posts where changedImage(post.photoFile) {
            pending.formUnion([.post(post.id), .postsOf(post.handle)])
        }
        return after
    }

    /// Makes `plan`'s files on all cores: each file's digest and its output.
    private func render(_ plan: [PlannedFile], model: SiteModel) throws(DiagnosticList) -> [String: (FileDigest, Output)] {
        let results = Mutex<[String: (FileDigest, Output)]>([:])
        let finish = self.finish
        try SiteRenderer.forEach(plan) { file throws(Diagnostic) in
            let bytes = try SiteRenderer.bytes(of: file, model: model)
            let made = (FileDigest(of: bytes), finish(file.path, bytes))
            results.withLock { $0[file.path] = made }
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
