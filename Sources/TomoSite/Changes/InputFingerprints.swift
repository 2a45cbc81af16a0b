import TomoContent
import TomoCore

/// A fingerprint of every input a plan names (`InputKey`), made from the files' stamps, the
/// parts of the model other pages show and the social graph. Two models' fingerprints are
/// compared key by key (`ChangeEngine.changedKeys`): the keys whose fingerprint changed are what
/// an edit touched, and only the files that read them are made again. A key made from narrower
/// ones (`anyCard` from every `card`) changes whenever one of them does: `InputKey.covers`
/// says which.
enum InputFingerprints {
    static func of(_ model: SiteModel, stamps: InputStamps) -> [InputKey: UInt64] {
        var keys = ofContent(model, stamps: stamps)
        keys.merge(ofGraph(model)) { first, _ in first }
        return keys
    }

    /// The keys of what the store says (follows, blocks, likes, registration order).
    private static func ofGraph(_ model: SiteModel) -> [InputKey: UInt64] {
        let graph = model.graph
        func digest(_ handles: [String]) -> UInt64 {
            var hasher = StableHasher()
            for handle in handles { hasher.add(handle) }
            hasher.add(UInt64(handles.count))
            return hasher.value
        }
        var keys: [InputKey: UInt64] = [:]
        var anyStats = StableHasher()
        for handle in model.profiles.keys.sorted() {
            keys[.followers(handle)] = digest(graph.followers(of: handle))
            keys[.following(handle)] = digest(graph.following(of: handle))
            keys[.timeline(handle)] = digest(graph.timelineOwners(of: handle))
            var stats = StableHasher()
            for post in model.posts.posts(of: handle) {
                stats.add(post.id)
                stats.add(digest(graph.likers(of: post.id)))
            }
            keys[.postStats(handle)] = stats.value
            anyStats.add(stats.value)
        }
        keys[.anyPostStats] = anyStats.value
        keys[.userOrder] = digest(graph.newestFirst)
        return keys
    }

    /// The keys of the content files and theme.
    private static func ofContent(_ model: SiteModel, stamps: InputStamps) -> [InputKey: UInt64] {
        let content = model.content
        let images = model.images.bySitePath
        func file(_ path: String) -> UInt64 { stamps.byPath[path]?.digest ?? 0 }
        func add(_ image: PublishedImage?, to hasher: inout StableHasher) {
            hasher.add(image?.srcset)
            hasher.add(image?.webpSrcset)
        }
        var keys: [InputKey: UInt64] = [:]

        var site = StableHasher()
        site.add(file(ContentPath.siteConfigFile))
        site.add(model.address.baseURL)
        keys[.site] = site.value

        var theme = StableHasher()
        let themeFiles = stamps.byPath.filter { $0.key.hasPrefix("templates/") && !$0.key.hasPrefix("templates/static/") }
        for (path, stamp) in themeFiles.sorted(by: { $0.key < $1.key }) {
            theme.add(path)
            theme.add(stamp.digest)
        }
        keys[.theme] = theme.value
        for path in model.theme.staticFiles.keys {
            // A built-in file has no stamp (0): the tool's identity, in the build state, stands for it.
            keys[.staticFile(path)] = file("templates/" + path)
        }

        var pageList = StableHasher()
        for page in content.pages {
            pageList.add(page.name)
            pageList.add(page.title)
            keys[.page(page.name)] = file(page.file)
        }
        keys[.pageList] = pageList.value

        var shape = StableHasher()
        var anyCard = StableHasher()
        for profile in content.profiles {
            let handle = profile.handle
            var card = StableHasher()
            let shown = UserCard(profile, images: images)
            card.add(shown.name)
            card.add(shown.summary)
            add(shown.icon, to: &card)
            keys[.card(handle)] = card.value
            anyCard.add(card.value)
            var whole = StableHasher()
            whole.add(file(profile.file))
            whole.add(card.value)
            add(profile.header.flatMap { images[ContentPath.userFile($0)] }, to: &whole)
            // Which items show at the build date: a `from` or `until` passing changes the page.
            for (index, item) in profile.items.enumerated() where item.isShown(at: model.buildDate) {
                whole.add(UInt64(index))
            }
            keys[.profile(handle)] = whole.value
            shape.add(handle)
        }
        keys[.anyCard] = anyCard.value

        var postsOf: [String: StableHasher] = [:]
        var anyPost = StableHasher()
        for post in model.posts.newestFirst {
            var one = StableHasher()
            one.add(file(post.file))
            add(images[post.photoFile], to: &one)
            keys[.post(post.id)] = one.value
            postsOf[post.handle, default: StableHasher()].add(one.value)
            anyPost.add(one.value)
            shape.add(post.id)
        }
        for profile in content.profiles { keys[.postsOf(profile.handle)] = postsOf[profile.handle]?.value ?? 0 }
        keys[.anyPost] = anyPost.value
        for page in content.pages { shape.add(page.name) }
        keys[.siteShape] = shape.value
        return keys
    }
}
