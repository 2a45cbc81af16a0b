import TomoContent
import TomoCore

/// A fingerprint of every input a plan names (`InputKey`), made from the files' stamps, the
/// parts of the model other pages show and the social graph. A later build compares them with
/// the ones it kept: the keys whose fingerprint changed are what an edit touched, and only the
/// files that read them are rendered again.
enum InputFingerprints {
    static func of(_ model: SiteModel, stamps: InputStamps) -> [InputKey: UInt64] {
        var keys = ofContent(model, stamps: stamps)
        keys.merge(ofGraph(model)) { first, _ in first }
        return keys
    }

    /// The keys of what the store says (follows, blocks, likes, hidden posts, registration
    /// order), from the graph alone: `tomo serve` compares them across a store edit.
    static func ofGraph(_ model: SiteModel) -> [InputKey: UInt64] {
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
            // Hidden posts are left out of the published ones, so the published ids say which.
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
        func image(_ path: String?, into hasher: inout StableHasher) {
            let published = path.flatMap { images[$0] }
            hasher.add(published?.srcset)
            hasher.add(published?.webpSrcset)
        }
        var keys: [InputKey: UInt64] = [:]

        var site = StableHasher()
        site.add(file("content/site.yaml"))
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
        var anyProfile = StableHasher()
        for profile in content.profiles {
            let handle = profile.handle
            var whole = StableHasher()
            whole.add(file(profile.file))
            image(profile.icon.map { "content/users/" + $0 }, into: &whole)
            image(profile.header.map { "content/users/" + $0 }, into: &whole)
            keys[.profile(handle)] = whole.value
            var card = StableHasher()
            for field in profile.card { card.add(field) }
            image(profile.icon.map { "content/users/" + $0 }, into: &card)
            keys[.card(handle)] = card.value
            anyProfile.add(whole.value)
            shape.add(handle)
        }
        keys[.anyProfile] = anyProfile.value

        var postsOf: [String: StableHasher] = [:]
        var anyPost = StableHasher()
        for post in content.posts {
            var one = StableHasher()
            one.add(file(post.file))
            image(post.photoFile, into: &one)
            keys[.post(post.id)] = one.value
            postsOf[post.handle, default: StableHasher()].add(one.value)
            anyPost.add(one.value)
            shape.add(post.id)
        }
        for (handle, hasher) in postsOf { keys[.postsOf(handle)] = hasher.value }
        keys[.anyPost] = anyPost.value
        for page in content.pages { shape.add(page.name) }
        keys[.siteShape] = shape.value
        return keys
    }
}
