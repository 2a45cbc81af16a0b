import Foundation
import TomoContent
import TomoCore

/// A fingerprint of every input a plan names (`InputKey`), made from the files' stamps, the
/// parts of the model other pages show and the social graph. Two models' fingerprints are
/// compared key by key (`ChangeEngine.changedKeys`): the keys whose fingerprint changed are what
/// an edit touched, and only the files that read them are made again.
///
/// A key made from narrower ones (`anyCard` from every `card`, `postsOf` from the user's posts)
/// is the wrapping sum of their parts, so it changes whenever one of them does (`InputKey.covers`
/// says which) and can be updated by taking one part out and putting its new value in: `tomo
/// serve` updates only what the files it read again touch (`updated`), `tomo build` makes them
/// all (`of`). Both use the same function for each key; debug builds check that they agree.
enum InputFingerprints {
    typealias Keys = [InputKey: UInt64]

    /// Every key of `model`.
    static func of(_ model: SiteModel, stamps: InputStamps) -> Keys {
        var keys: Keys = [:]
        keys[.site] = site(model, stamps: stamps)
        for (key, value) in theme(model, stamps: stamps) + rootFiles(model, stamps: stamps) + pages(model.content.pages, stamps: stamps) { keys[key] = value }
        var anyCard: UInt64 = 0
        for profile in model.content.profiles {
            let (whole, contact, card) = self.profile(profile, model: model, stamps: stamps)
            keys[.profile(profile.handle)] = whole
            keys[.contactCard(profile.handle)] = contact
            keys[.card(profile.handle)] = card
            keys[.postsOf(profile.handle)] = 0
            anyCard &+= part(profile.handle, card)
        }
        keys[.anyCard] = anyCard
        var anyPost: UInt64 = 0
        for post in model.content.posts {
            let value = self.post(post, model: model, stamps: stamps)
            keys[.post(post.id)] = value
            keys[.postsOf(post.handle), default: 0] &+= part(post.id, value)
            anyPost &+= part(post.id, value)
        }
        keys[.anyPost] = anyPost
        keys[.siteShape] = shape(of: model)
        keys[.redirects] = redirects(model)
        for (key, value) in graphKeys(model) { keys[key] = value }
        return keys
    }

    /// `.siteShape`: which profiles, posts and pages are published.
    private static func shape(of model: SiteModel) -> UInt64 {
        var shape = pageShape(model.content.pages.map(\.name))
        for profile in model.content.profiles { shape &+= part("user", profile.handle) }
        for post in model.content.posts { shape &+= part("post", post.id) }
        return shape
    }

    /// What `updated` made of the previous keys: every key made again, or only the keys it set.
    /// The previous table is not copied to make a new one (at 10,000 users it has 250,000 keys,
    /// and copying it took most of a preview's rebuild after a profile edit): the changes are
    /// applied to it once the rebuild succeeded.
    enum Update {
        /// Every key, made again.
        case whole(Keys)
        /// Each key set, with its new value (nil: gone); the others are as they were.
        case changes([InputKey: UInt64?])

        /// The keys whose fingerprint differs from `previous`'s, or that are new or gone.
        func changedKeys(from previous: Keys) -> Set<InputKey> {
            switch self {
            case .whole(let keys): return ChangeEngine.changedKeys(from: previous, to: keys)
            case .changes(let changes): return Set(changes.compactMap { key, value in value != previous[key] ? key : nil })
            }
        }

        /// `keys` (the previous ones) brought up to date.
        func apply(to keys: inout Keys) {
            switch self {
            case .whole(let all): keys = all
            case .changes(let changes): for (key, value) in changes { keys[key] = value }
            }
        }
    }

    /// The previous keys and the changes made to them so far, read as one table.
    private struct Draft {
        let previous: Keys
        var changes: [InputKey: UInt64?] = [:]

        subscript(key: InputKey) -> UInt64? {
            get { changes[key] ?? previous[key] }
            set { changes[key] = .some(newValue) }
        }

        mutating func add(_ delta: UInt64, to key: InputKey) {
            self[key] = (self[key] ?? 0) &+ delta
        }
    }

    /// `previous` (the keys of the last model) brought up to `model`, which differs from the
    /// last model only by what `reload` names, with the same profiles unless the whole site was
    /// read again or an image changed (then every key is made again, as `of` does).
    /// `changedImages` are the images (by path in the site) whose thumbnails differ between the
    /// two models: every profile and post showing one of them is made again too (an image two
    /// users show moves to the other's media folder when one stops showing it).
    /// `lastBuildDate`: the date the previous keys showed items at (nil: not known, so every
    /// profile with dated items is made again). What the last model had that `reload` may
    /// change (its pages, static files, a user's posts) is read from the previous keys, so
    /// `tomo build`, which keeps only the keys, and `tomo serve` update them alike.
    static func updated(
        _ previous: Keys, to model: SiteModel, stamps: InputStamps, reload: ContentReload, changedImages: Set<String>, lastBuildDate: Date?
    ) -> Update {
        if reload.everything || reload.images { return .whole(of(model, stamps: stamps)) }
        var keys = Draft(previous: previous)
        keys[.site] = site(model, stamps: stamps)
        // What the previous keys name, looked for only when something that changes it was read
        // again (one pass over a quarter of a million keys at 10,000 users).
        var before: (staticFiles: [String], rootFiles: [String], pages: [String], posts: [String: [String]]) = ([], [], [], [:])
        if reload.theme || reload.rootFiles || reload.pages || !reload.postFolders.isEmpty {
            for key in previous.keys {
                switch key {
                case .staticFile(let path): before.staticFiles.append(path)
                case .rootFile(let path): before.rootFiles.append(path)
                case .page(let name): before.pages.append(name)
                case .post(let id):
                    let owner = String(id.prefix { $0 != "/" })
                    if reload.postFolders.contains(owner) { before.posts[owner, default: []].append(id) }
                default: break
                }
            }
        }
        if reload.theme {
            for path in before.staticFiles { keys[.staticFile(path)] = nil }
            for (key, value) in theme(model, stamps: stamps) { keys[key] = value }
        }
        if reload.rootFiles {
            for path in before.rootFiles { keys[.rootFile(path)] = nil }
            for (key, value) in rootFiles(model, stamps: stamps) { keys[key] = value }
        }
        if reload.pages {
            for name in before.pages { keys[.page(name)] = nil }
            for (key, value) in pages(model.content.pages, stamps: stamps) { keys[key] = value }
            keys.add(pageShape(model.content.pages.map(\.name)) &- pageShape(before.pages), to: .siteShape)
            // A page may take an old handle's addresses, or give them back.
            keys[.redirects] = redirects(model)
        }
        // Profiles read again, those showing a changed image, and, at a new build date, those
        // whose items have dates.
        var profiles = reload.profiles
        var postIDs = reload.posts
        if !changedImages.isEmpty {
            for profile in model.content.profiles where profile.images.contains(where: { changedImages.contains(ContentPath.userFile($0.path)) }) {
                profiles.insert(profile.handle)
            }
            for post in model.content.posts where changedImages.contains(post.photoFile) { postIDs.insert(post.id) }
        }
        if lastBuildDate != model.buildDate { profiles.formUnion(model.published.itemMoments.keys) }
        for handle in profiles {
            guard let profile = model.profile(handle) else { continue }
            let (whole, contact, card) = self.profile(profile, model: model, stamps: stamps)
            keys[.profile(handle)] = whole
            keys[.contactCard(handle)] = contact
            let before = keys[.card(handle)] ?? 0
            keys[.card(handle)] = card
            keys.add(part(handle, card) &- part(handle, before), to: .anyCard)
        }
        // Posts read again: each one's part of its owner's posts, of all posts and of the shape.
        for handle in reload.postFolders {
            postIDs.formUnion(before.posts[handle] ?? [])
            postIDs.formUnion(model.posts.posts(of: handle).map(\.id))
        }
        var owners: Set<String> = []
        for id in postIDs {
            let owner = String(id.prefix { $0 != "/" })
            if let before = keys[.post(id)] {
                keys[.post(id)] = nil
                keys.add(0 &- part(id, before), to: .postsOf(owner))
                keys.add(0 &- part(id, before), to: .anyPost)
                keys.add(0 &- part("post", id), to: .siteShape)
                owners.insert(owner)
            }
            if let post = model.posts.byID[id] {
                let value = self.post(post, model: model, stamps: stamps)
                keys[.post(id)] = value
                keys.add(part(id, value), to: .postsOf(owner))
                keys.add(part(id, value), to: .anyPost)
                keys.add(part("post", id), to: .siteShape)
                owners.insert(owner)
            }
        }
        // The likes on a user's posts list the posts.
        for owner in owners where model.profile(owner) != nil {
            let value = postStats(owner, model: model)
            let before = keys[.postStats(owner)] ?? 0
            keys[.postStats(owner)] = value
            keys.add(part(owner, value) &- part(owner, before), to: .anyPostStats)
        }
        // What the store says reaches the pages through the graph's keys and the redirects, and
        // through which posts are published (a hidden one is not): the first two are made again,
        // and when the published posts are others than the files alone make, every key is.
        if reload.store {
            guard keys[.siteShape] == shape(of: model) else { return .whole(of(model, stamps: stamps)) }
            for (key, value) in graphKeys(model) { keys[key] = value }
            keys[.redirects] = redirects(model)
        }
        return .changes(keys.changes)
    }

    /// Debug builds (the tests) also make every key as `of` does and stop when `update` of
    /// `previous` differs from them: an update that missed a key would leave pages stale.
    /// `who` names the command in the message.
    static func check(_ update: Update, of previous: Keys, model: SiteModel, stamps: InputStamps, who: String) throws(DiagnosticList) {
        guard DebugChecks.enabled, case .changes = update else { return }
        var updated = previous
        update.apply(to: &updated)
        let wrong = ChangeEngine.changedKeys(from: of(model, stamps: stamps), to: updated)
        guard wrong.isEmpty else {
            throw DiagnosticList([Diagnostic("internal error: \(who)'s fingerprints of \(wrong.map { "\($0)" }.sorted().joined(separator: ", ")) differ from a full build's")])
        }
    }

    // MARK: - One function per key

    /// One part of a sum key: `value` under `name`.
    private static func part(_ name: String, _ value: UInt64) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(name)
        hasher.add(value)
        return hasher.value
    }

    private static func part(_ kind: String, _ name: String) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(kind)
        hasher.add(name)
        return hasher.value
    }

    private static func stamp(_ path: String, _ stamps: InputStamps) -> UInt64 { stamps.byPath[path]?.digest ?? 0 }

    private static func add(_ image: PublishedImage?, to hasher: inout StableHasher) {
        for source in (image?.jpegSources ?? []) + (image?.webpSources ?? []) {
            hasher.add(source.path)
            hasher.add(UInt64(truncatingIfNeeded: source.width))
        }
    }

    private static func site(_ model: SiteModel, stamps: InputStamps) -> UInt64 {
        var site = StableHasher()
        site.add(stamp(ContentPath.siteConfigFile, stamps))
        // Every page links the site icon's files, named by its bytes.
        if let icon = model.content.config.icon { site.add(stamp("content/" + icon, stamps)) }
        site.add(model.address.baseURL)
        return site.value
    }

    private static func theme(_ model: SiteModel, stamps: InputStamps) -> [(InputKey, UInt64)] {
        var theme = StableHasher()
        let themeFiles = stamps.byPath.filter { $0.key.hasPrefix("templates/") && !$0.key.hasPrefix("templates/static/") }
        for (path, stamp) in themeFiles.sorted(by: { $0.key < $1.key }) {
            theme.add(path)
            theme.add(stamp.digest)
        }
        // A built-in static file has no stamp (0): the tool's identity, in the build state, stands for it.
        return [(.theme, theme.value)] + model.theme.staticFiles.keys.map { (.staticFile($0), stamp("templates/" + $0, stamps)) }
    }

    private static func rootFiles(_ model: SiteModel, stamps: InputStamps) -> [(InputKey, UInt64)] {
        model.published.rootFolder.files.keys.map { (.rootFile($0), stamp(ContentPath.rootStaticFolder + "/" + $0, stamps)) }
    }

    private static func pages(_ pages: [Page], stamps: InputStamps) -> [(InputKey, UInt64)] {
        var pageList = StableHasher()
        var keys: [(InputKey, UInt64)] = []
        for page in pages {
            pageList.add(page.name)
            pageList.add(page.title)
            keys.append((.page(page.name), stamp(page.file, stamps)))
        }
        return keys + [(.pageList, pageList.value)]
    }

    private static func pageShape(_ names: [String]) -> UInt64 {
        names.reduce(0) { $0 &+ part("page", $1) }
    }

    /// `.profile` (the file, the images, which items show at the build date), `.contactCard`
    /// and `.card`.
    private static func profile(_ profile: Profile, model: SiteModel, stamps: InputStamps) -> (whole: UInt64, contact: UInt64, card: UInt64) {
        let images = model.images.bySitePath
        let shown = UserCard(profile, images: images)
        var card = StableHasher()
        card.add(shown.name)
        card.add(shown.summary)
        card.add(shown.fediverseCreator)
        card.add(shown.language?.text)
        add(shown.icon, to: &card)
        // What the contact card shows (`ProfileFiles`); all of it is in the file or the icon,
        // so `.profile` changes whenever this does.
        var contact = StableHasher()
        contact.add(card.value)
        contact.add(profile.bio?.plainText)
        for link in profile.links {
            contact.add(link.service?.key)
            contact.add(link.url)
        }
        contact.add(profile.publicEmail)
        var whole = StableHasher()
        whole.add(stamp(profile.file, stamps))
        whole.add(card.value)
        // Every image the page shows but the icon (the card has it): header, links', items'.
        for (path, _) in profile.images.dropFirst(profile.icon == nil ? 0 : 1) {
            add(images[ContentPath.userFile(path)], to: &whole)
        }
        // Which items show at the build date: a `from` or `until` passing changes the page.
        for (index, item) in profile.items.enumerated() where item.isShown(at: model.buildDate) {
            whole.add(UInt64(index))
        }
        return (whole.value, contact.value, card.value)
    }

    private static func post(_ post: Post, model: SiteModel, stamps: InputStamps) -> UInt64 {
        var one = StableHasher()
        one.add(stamp(post.file, stamps))
        add(model.images.bySitePath[post.photoFile], to: &one)
        return one.value
    }

    private static func digest(_ handles: [String]) -> UInt64 {
        var hasher = StableHasher()
        for handle in handles { hasher.add(handle) }
        hasher.add(UInt64(handles.count))
        return hasher.value
    }

    /// The likes on `handle`'s published posts.
    private static func postStats(_ handle: String, model: SiteModel) -> UInt64 {
        var stats = StableHasher()
        for post in model.posts.posts(of: handle) {
            stats.add(post.id)
            stats.add(digest(model.graph.likers(of: post.id)))
        }
        return stats.value
    }

    /// The keys of what the store says (follows, blocks, likes, registrations and their order).
    private static func graphKeys(_ model: SiteModel) -> [(InputKey, UInt64)] {
        let graph = model.graph
        var keys: [(InputKey, UInt64)] = []
        keys.reserveCapacity(model.content.profiles.count * 5 + 2)
        var anyStats: UInt64 = 0
        var anyRegistration: UInt64 = 0
        for handle in model.content.profiles.lazy.map(\.handle) {
            keys.append((.followers(handle), digest(graph.followers(of: handle))))
            keys.append((.following(handle), digest(graph.following(of: handle))))
            keys.append((.timeline(handle), digest(graph.timelineOwners(of: handle))))
            let registration = digest(graph.registration(of: handle))
            keys.append((.registration(handle), registration))
            anyRegistration &+= part(handle, registration)
            let stats = postStats(handle, model: model)
            keys.append((.postStats(handle), stats))
            anyStats &+= part(handle, stats)
        }
        keys.append((.anyPostStats, anyStats))
        var order = StableHasher()
        order.add(digest(graph.newestFirst))
        order.add(digest(graph.newestRegistration))
        // Every registration: the site feed reads its entries' owners' (`InputKey.covers`).
        order.add(anyRegistration)
        keys.append((.userOrder, order.value))
        return keys
    }

    private static func redirects(_ model: SiteModel) -> UInt64 {
        var hasher = StableHasher()
        for (old, new) in model.published.redirects.sorted(by: { $0.key < $1.key }) {
            hasher.add(old)
            hasher.add(new)
        }
        return hasher.value
    }

    private static func digest(_ registration: SocialGraph.Registration?) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(digest(registration?.date))
        hasher.add(UInt64(truncatingIfNeeded: registration?.sequence ?? 0))
        return hasher.value
    }

    private static func digest(_ date: Date?) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(date.map { String($0.timeIntervalSince1970) })
        return hasher.value
    }
}
