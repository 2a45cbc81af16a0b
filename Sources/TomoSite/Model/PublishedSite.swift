import Foundation
import TomoContent
import TomoCore

/// The part of a site that may be published, decided here and nowhere else.
///
/// The image step, the plan, the fingerprints and the page views are given only this: posts
/// that are not public, are hidden with `tomo post hide`, belong to a user without a profile,
/// are drafts (without `--drafts`) or are dated after the build (without `--future`), draft
/// pages, and the private fields of profiles, are not in it. Nothing can be made from them,
/// because nothing downstream can read them. The store reaches the pages only as the
/// `SocialGraph` of the published profiles, never as the store itself (blocks, picks, reports,
/// locations).
struct PublishedSite: Sendable {
    /// The content less everything private: profiles sorted by handle (an `email` only with
    /// `showEmail: true`, no `hidden: true` items), pages, and the published posts sorted by id.
    let content: SiteContent
    /// The store's relations among the published profiles.
    let graph: SocialGraph
    let theme: Theme
    /// The files of the root static folder (`static/`), all published.
    let rootFolder: RootFolder
    let address: SiteAddress
    /// The first date after the build's of a post kept back only for being dated after it: the
    /// moment the published posts change without any file changing.
    let nextPost: Date?
    /// Each old handle whose addresses redirect, with the handle they lead to: the graph's
    /// renames less the handles a published free page has taken.
    let redirects: [String: String]

    /// Where each handle's profile is in `content.profiles`.
    private let profileIndex: [String: Int]

    /// The `from` and `until` dates of the items of each published profile that has any, by
    /// handle: the profiles whose pages change with the build date alone (`TimedItems`).
    let itemMoments: [String: [Date]]

    /// What of the last published site a `tomo serve` rebuild may keep, by what it read again.
    struct Reuse {
        let previous: PublishedSite
        /// The store and the set of profiles are the same: the social graph holds.
        var graph = false
        /// The graph and the posts are the same and no post's date lies between the two build
        /// dates: the published posts (and `nextPost`) hold.
        var posts = false
        /// The profiles read again (the set of handles the same); every other published profile
        /// is the previous one. Nil: every profile was read again.
        var rereadProfiles: Set<String>?
    }

    /// The site published by a build with `options` at `date` (the build date; a `tomo serve`
    /// session moves it on), keeping of `reuse`'s previous site what it says holds: after a
    /// profile edit, the graph, the posts and every other profile, which saves going through
    /// 10,000 profiles and 100,000 posts again.
    init(_ inputs: SiteInputs, options: BuildOptions, at date: Date, reusing reuse: Reuse? = nil) {
        let all = inputs.content
        let kept = reuse.flatMap { reuse in
            reuse.rereadProfiles.flatMap { Self.profiles(all.profiles, keeping: reuse.previous, but: $0) }
        }
        let profiles = kept?.profiles ?? all.profiles.map(\.published)
        // Made only when the graph or the posts are sorted out again.
        let handles = reuse?.graph == true && reuse?.posts == true ? [] : Set(profiles.map(\.handle))
        let reusedGraph = reuse?.graph == true ? reuse?.previous.graph : nil
        // The store's relations are indexed on another core while the posts are sorted out,
        // which needs only the hidden ones.
        let madeGraph = Background { reusedGraph ?? SocialGraph(store: inputs.store, profiles: handles) }
        var content = all
        content.profiles = profiles
        content.pages = all.pages.filter { options.drafts || !$0.draft }
        if let previous = reuse?.previous, reuse?.posts == true {
            content.posts = previous.content.posts
            nextPost = previous.nextPost
        } else {
            let hidden = reusedGraph?.hidden ?? SocialGraph.hiddenPosts(in: inputs.store)
            var nextPost: Date?
            content.posts = all.posts.filter { post in
                guard post.visibility == .public, !hidden.contains(post.id), handles.contains(post.handle),
                      options.drafts || !post.draft else { return false }
                if Self.isDue(post, at: date, options: options) { return true }
                nextPost = min(nextPost ?? post.date, post.date)
                return false
            }
            self.nextPost = nextPost
        }
        let graph = madeGraph.value
        let pageNames = Set(content.pages.map(\.name))
        redirects = graph.renamed.filter { !pageNames.contains($0.key) }
        profileIndex = kept?.index ?? Dictionary(profiles.indices.map { (profiles[$0].handle, $0) }, uniquingKeysWith: { first, _ in first })
        itemMoments = kept?.moments ?? Dictionary(uniqueKeysWithValues: profiles.lazy.compactMap { profile in
            Self.itemMoments(of: profile).map { (profile.handle, $0) }
        })
        self.content = content
        self.graph = graph
        theme = inputs.theme
        rootFolder = inputs.rootFolder
        address = inputs.address
    }

    /// `all` published, each profile but those of `reread` taken from `previous`, with their
    /// `itemMoments` and the index of where each is (the previous one: the same handles are at
    /// the same places); nil when the handles are not the same ones.
    private static func profiles(_ all: [Profile], keeping previous: PublishedSite, but reread: Set<String>) -> (profiles: [Profile], moments: [String: [Date]], index: [String: Int])? {
        var profiles = previous.content.profiles
        var moments = previous.itemMoments
        guard profiles.count == all.count else { return nil }
        for handle in reread {
            // The same handles, sorted alike, are at the same places in both.
            guard let index = previous.profileIndex[handle], index < all.count, all[index].handle == handle, profiles[index].handle == handle else { return nil }
            let profile = all[index].published
            profiles[index] = profile
            moments[handle] = itemMoments(of: profile)
        }
        return (profiles, moments, previous.profileIndex)
    }

    /// The published profile of `handle`.
    func profile(_ handle: String) -> Profile? {
        profileIndex[handle].map { content.profiles[$0] }
    }

    /// The `from` and `until` dates of `profile`'s items; nil when it has none.
    private static func itemMoments(of profile: Profile) -> [Date]? {
        // Read in place: a lazy chain over the items copied each one.
        let items = profile.items
        var moments: [Date] = []
        for index in items.indices {
            if let from = items[index].from { moments.append(from) }
            if let until = items[index].until { moments.append(until) }
        }
        return moments.isEmpty ? nil : moments
    }

    /// Whether `post`'s date lets it be published at `date`: it has come, or `--future` was given.
    static func isDue(_ post: Post, at date: Date, options: BuildOptions) -> Bool {
        options.future || post.date <= date
    }
}
