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

    /// The site published by a build with `options` at `date` (the build date; a `tomo serve`
    /// session moves it on). `graph` may come from the previous published site when the store
    /// and the set of profiles did not change, and `posts` (its posts and `nextPost`) when the
    /// posts did not either and no post's date lies between the two build dates, which saves
    /// indexing them again after a profile edit.
    init(_ inputs: SiteInputs, options: BuildOptions, at date: Date, graph reusedGraph: SocialGraph? = nil, posts previous: PublishedSite? = nil) {
        let all = inputs.content
        let profiles = all.profiles.map(\.published)
        let handles = Set(profiles.map(\.handle))
        // The store's relations are indexed on another core while the posts are sorted out,
        // which needs only the hidden ones.
        let madeGraph = Background { reusedGraph ?? SocialGraph(store: inputs.store, profiles: handles) }
        let hidden = reusedGraph?.hidden ?? SocialGraph.hiddenPosts(in: inputs.store)
        var content = all
        content.profiles = profiles
        content.pages = all.pages.filter { options.drafts || !$0.draft }
        if let previous {
            content.posts = previous.content.posts
            nextPost = previous.nextPost
        } else {
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
        self.content = content
        self.graph = graph
        theme = inputs.theme
        rootFolder = inputs.rootFolder
        address = inputs.address
    }

    /// Whether `post`'s date lets it be published at `date`: it has come, or `--future` was given.
    static func isDue(_ post: Post, at date: Date, options: BuildOptions) -> Bool {
        options.future || post.date <= date
    }
}
