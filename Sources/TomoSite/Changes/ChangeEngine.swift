import TomoContent
import TomoCore

/// What changed between two builds, decided here for `tomo build` and `tomo serve` alike.
///
/// Both put the site's model together, fingerprint every input (`InputFingerprints`) and
/// compare the fingerprints with those of the last good build (`changedKeys`): `tomo build`
/// keeps them in `BuildState`, `tomo serve` in memory. The planned files that read a changed key,
/// and the ones the last output lacks, are made again (`filesToMake`). `tomo serve` also knows
/// which paths changed, so it reads only those files again (`ContentReload`) instead of the
/// whole site; what they change is still found by comparing fingerprints.
enum ChangeEngine {
    /// The keys that are new, gone, or whose fingerprint differs.
    static func changedKeys(from before: [InputKey: UInt64], to after: [InputKey: UInt64]) -> Set<InputKey> {
        var changed: Set<InputKey> = []
        for (key, fingerprint) in after where before[key] != fingerprint { changed.insert(key) }
        for key in before.keys where after[key] == nil { changed.insert(key) }
        return changed
    }

    /// The planned files to make: those that read a changed key (every file when `changed` is
    /// nil) and those the last output (`kept`, by path) does not have; and the kept files the
    /// plan no longer has. `readers`
    /// (of `plan`) may be given when `plan` is the very plan `kept` was made from: then only
    /// the readers of the changed keys are looked at. `samePaths`: the plan has the very paths
    /// of `kept` (`pathsDigest`), so none is new or gone and `kept` is not looked at (half a
    /// million lookups at 10,000 users).
    static func filesToMake(
        _ plan: [PlannedFile], changed: Set<InputKey>?, kept: some KeptDigests, samePaths: Bool = false, readers: ReaderIndex? = nil
    ) -> (make: [PlannedFile], gone: [String]) {
        if let readers, let changed {
            return (Set(changed.flatMap { readers.readers(of: $0) }).sorted().map { plan[Int($0)] }, [])
        }
        // An edit changes a few keys: comparing with each beats hashing every input of every file.
        let few = changed.map(Array.init) ?? []
        let reads: @Sendable (PlannedFile) -> Bool
        if changed != nil, few.count <= 8 {
            reads = { file in file.inputs.contains { few.contains($0) } }
        } else if let changed {
            reads = { file in file.inputs.contains { changed.contains($0) } }
        } else {
            reads = { _ in true }
        }
        // In runs on every core: at 10,000 users the plan has 467,086 files.
        if samePaths { return (Array(plan.concurrentRuns(perCore: 4) { $0.filter(reads) }.joined()), []) }
        let parts = plan.concurrentRuns(perCore: 4) { run in
            var stillPlanned = 0
            let make = run.filter { file in
                guard kept[file.path] != nil else { return true }
                stillPlanned += 1
                return reads(file)
            }
            return (make, stillPlanned)
        }
        let make = Array(parts.map(\.0).joined())
        let stillPlanned = parts.reduce(0) { $0 + $1.1 }
        // Every kept file is still planned unless the counts differ.
        guard stillPlanned != kept.count else { return (make, []) }
        let planned = Set(plan.map(\.path))
        return (make, kept.paths.filter { !planned.contains($0) })
    }

    /// A digest of the paths of `plan` in its order: a plan with the same digest as the last
    /// build's has the paths of its output. Hashed in runs of a fixed length on every core, so
    /// the digest does not depend on the number of cores.
    static func pathsDigest(_ plan: [PlannedFile]) -> UInt64 {
        let runLength = 8_192
        let runs = stride(from: 0, to: plan.count, by: runLength).map { $0..<min($0 + runLength, plan.count) }
        var hasher = StableHasher()
        hasher.add(UInt64(plan.count))
        for runDigest in runs.concurrentMap({ run in
            var hasher = StableHasher()
            // Eight bytes at a time (the digest is compared only with this tomo's own).
            for file in plan[run] {
                var path = file.path
                path.withUTF8 { hasher.add(raw: UnsafeRawBufferPointer($0)) }
            }
            return hasher.value
        }) { hasher.add(runDigest) }
        return hasher.value
    }

    /// Whether a plan made before the change still lists every file, and what each reads:
    /// no key the plan depends on changed, and the same thumbnails (`sameImages`: the very same
    /// table), share cards, static files of the theme and files of the root static folder exist.
    static func planStillHolds(changed: Set<InputKey>, before: SiteModel, after: SiteModel, sameImages: Bool) -> Bool {
        !changed.contains(where: \.shapesPlan)
            && before.cards.files == after.cards.files
            && (sameImages || before.images.publishesSamePaths(as: after.images))
            && Set(before.theme.staticFiles.keys) == Set(after.theme.staticFiles.keys)
            && Set(before.published.rootFolder.files.keys) == Set(after.published.rootFolder.files.keys)
    }
}

/// The digests of the files of the last output, by path, as `ChangeEngine.filesToMake` looks at
/// them: `tomo build` reads them from its kept state (`OutputDigests`), `tomo serve` holds a
/// dictionary.
protocol KeptDigests: Sendable {
    subscript(path: String) -> FileDigest? { get }
    var count: Int { get }
    var paths: [String] { get }
}

extension OutputDigests: KeptDigests {}

extension Dictionary: KeptDigests where Key == String, Value == FileDigest {
    var paths: [String] { Array(keys) }
}

/// What `tomo serve` reads again after some paths changed, gathered across rebuilds that failed
/// (a profile left with an error is read again when its icon appears).
struct ContentReload: Sendable {
    /// Read the whole site again, as `tomo build` does: for changes whose effect is known only
    /// then (site.yaml, a profile that appeared or went, anything unknown).
    var everything = false
    var profiles: Set<String> = []
    var posts: Set<String> = []
    /// Users whose whole posts folder is read again (moved, renamed, removed).
    var postFolders: Set<String> = []
    var pages = false
    var theme = false
    /// Something under `static/` changed: the root static folder is listed again.
    var rootFiles = false
    var store = false
    /// An image file changed: thumbnails are looked up again (from the cache) for every image.
    var images = false
    /// Paths whose stamps are taken again.
    var paths: Set<String> = []

    /// Adds what `paths` (relative to the site folder) need; `content` (the last good one)
    /// says which profiles and posts show a changed image, since they must be checked again.
    mutating func add(_ changedPaths: [String], content: SiteContent?) {
        let icon = content?.config.icon.map { "content/" + $0 }
        for path in changedPaths {
            paths.insert(path)
            // Every page links the site icon: read everything again, as for site.yaml.
            if let icon, icon == path || icon.hasPrefix(path + "/") {
                everything = true
                continue
            }
            switch ContentPath(classifying: path) {
            case .siteConfig, .other:
                everything = true
            case .profile(let handle):
                profiles.insert(handle)
            case .profileImage:
                // Only an image a profile shows (or a folder holding one) can change a page: a
                // profile that failed for want of it is read again anyway (it is still here).
                for profile in content?.profiles ?? [] where profile.images.contains(where: { Self.isAt(ContentPath.userFile($0.path), path) }) {
                    profiles.insert(profile.handle)
                    images = true
                }
            case .post(let id):
                posts.insert(id)
            case .postPhoto:
                for post in content?.posts ?? [] where post.photoFile == path {
                    posts.insert(post.id)
                    images = true
                }
            case .postsFolder(let handle):
                postFolders.insert(handle)
            case .page:
                pages = true
            case .store:
                store = true
            case .template, .themeStatic:
                theme = true
            case .rootStatic:
                rootFiles = true
            case .ignored:
                break
            }
        }
    }

    /// Whether `file` is `path` or inside the folder `path`.
    private static func isAt(_ file: String, _ path: String) -> Bool {
        file == path || file.hasPrefix(path + "/")
    }
}
