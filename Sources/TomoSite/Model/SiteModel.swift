import Foundation
import TomoContent
import TomoCore

/// The site of one build put together: its published part (see `PublishedSite`) and its
/// thumbnails, indexed once, with the views pages are rendered from. This is all a planned file
/// is made from, so what is not published cannot be read here.
struct SiteModel: Sendable {
    let published: PublishedSite
    let posts: PostIndex
    let views: PageViews
    let images: PublishedImages
    /// The share card of every published profile and post.
    let cards: PublishedCards
    /// Items with `from`/`until` are shown when this moment is inside them.
    let buildDate: Date
    /// What one sitemap file may hold (`BuildOptions.sitemapLimit`).
    let sitemapLimit: Sitemap.Limit

    var content: SiteContent { published.content }
    var graph: SocialGraph { published.graph }
    var theme: Theme { published.theme }
    var address: SiteAddress { published.address }

    /// The published profile of `handle`.
    func profile(_ handle: String) -> Profile? { published.profile(handle) }

    /// `posts` from the previous model, when the published posts and the graph are the same,
    /// saves indexing them again after a profile edit.
    init(published: PublishedSite, images: PublishedImages, cards: PublishedCards, buildDate: Date, sitemapLimit: Sitemap.Limit, posts reusedPosts: PostIndex? = nil) {
        let posts = reusedPosts ?? PostIndex(published: published.content.posts)
        self.published = published
        self.posts = posts
        self.images = images
        self.cards = cards
        self.buildDate = buildDate
        self.sitemapLimit = sitemapLimit
        views = PageViews(published: published, posts: posts, buildDate: buildDate, images: images.bySitePath, icons: images.icons, cards: cards)
    }

    /// The published part of `inputs`, its thumbnails and share cards made (or found in the
    /// cache), indexed. `checkingOnly` (for `tomo check`) puts every image through the same tests
    /// without making thumbnails or cards or writing anything (`PublishedImages.inspect`).
    /// `stamps`: the site's files as the build stamped them (the images are not looked up again).
    static func make(from inputs: SiteInputs, options: BuildOptions, checkingOnly: Bool = false, stamps: InputStamps? = nil) throws(DiagnosticList) -> SiteModel {
        // The image cache's index is read on another core while the published site is put
        // together, and the posts are indexed there while the images are looked up.
        let processor = checkingOnly ? nil : PublishedImages.processor(for: inputs.content.config, site: options.site, verifiesCache: options.full)
        let published = PublishedSite(inputs, options: options, at: options.buildDate)
        let posts = Background { PostIndex(published: published.content.posts) }
        let images = checkingOnly
            ? try PublishedImages.inspect(for: published.content, site: options.site)
            : try PublishedImages.make(for: published.content, at: options.buildDate, site: options.site, stamps: stamps, processor: processor, verifiesCache: options.full)
        ProcessMemory.releaseElsewhere(consume processor)
        let cards = checkingOnly
            ? try PublishedCards.inspect(for: published.content, images: images)
            : try PublishedCards.make(for: published.content, images: images, site: options.site)
        return SiteModel(published: published, images: images, cards: cards, buildDate: options.buildDate, sitemapLimit: options.sitemapLimit, posts: posts.value)
    }
}
