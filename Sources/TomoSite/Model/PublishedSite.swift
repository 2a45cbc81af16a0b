import TomoContent
import TomoCore

/// The part of a site that may be published, decided here and nowhere else.
///
/// The image step, the plan, the fingerprints and the page views are given only this: posts
/// that are not public, are hidden with `tomo post hide` or belong to a user without a profile,
/// and the private fields of profiles, are not in it. Nothing can be made from them, because
/// nothing downstream can read them. The store reaches the pages only as the `SocialGraph` of
/// the published profiles, never as the store itself (blocks, picks, reports, locations).
struct PublishedSite: Sendable {
    /// The content less everything private: profiles sorted by handle (an `email` only with
    /// `showEmail: true`, no `hidden: true` items), pages, and the published posts sorted by id.
    let content: SiteContent
    /// The store's relations among the published profiles.
    let graph: SocialGraph
    let theme: Theme
    let address: SiteAddress

    /// `graph` and `posts` may come from the previous published site when the store and the set
    /// of profiles (for `posts`: and the posts) did not change, which saves indexing them again
    /// after a profile edit.
    init(_ inputs: SiteInputs, graph reusedGraph: SocialGraph? = nil, posts reusedPosts: [Post]? = nil) {
        let all = inputs.content
        let profiles = all.profiles.map(Self.published)
        let handles = Set(profiles.map(\.handle))
        let graph = reusedGraph ?? SocialGraph(store: inputs.store, profiles: handles)
        var content = all
        content.profiles = profiles
        content.posts = reusedPosts ?? all.posts.filter { post in
            post.visibility == .public && !graph.hidden.contains(post.id) && handles.contains(post.handle)
        }
        self.content = content
        self.graph = graph
        theme = inputs.theme
        address = inputs.address
    }

    /// `profile` without what its page must never print. Most profiles have nothing to take
    /// out and are kept as they are (no copy).
    private static func published(_ profile: Profile) -> Profile {
        let hasPrivateEmail = profile.email != nil && !profile.showEmail
        guard hasPrivateEmail || profile.items.contains(where: \.hidden) else { return profile }
        return Profile(
            handle: profile.handle, file: profile.file, name: profile.name, bio: profile.bio,
            icon: profile.icon, header: profile.header, links: profile.links,
            items: profile.items.filter { !$0.hidden }, itemColor: profile.itemColor,
            email: profile.publicEmail, showEmail: profile.showEmail, iconAt: profile.iconAt, headerAt: profile.headerAt
        )
    }
}
