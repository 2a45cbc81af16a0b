import Foundation
import TomoContent
import TomoCore

/// What an output file is made from, so a rebuild after an edit can redo only the files that
/// read what changed.
enum InputKey: Sendable, Hashable {
    /// `content/site.yaml` (and the base URL).
    case site
    /// Any template or label of the theme.
    case theme
    /// One static file of the theme (`static/style.css`): only that file reads it.
    case staticFile(String)
    /// The list of free pages (every page's navigation shows it).
    case pageList
    case page(String)
    /// Everything a profile file says (its own page and feed read this).
    case profile(String)
    /// How a user appears on other pages: name, icon and the bio's first line (cards, post
    /// owners, likers). A profile edit that leaves these alone touches only the user's own pages.
    case card(String)
    /// Any profile at all (the home page, the search index, the sitemap).
    case anyProfile
    case post(String)
    /// Any post of one user (their profile grid, feed, and the timelines that show them).
    case postsOf(String)
    /// Any post at all (the home page's recent posts, the site feed).
    case anyPost
    // What the store says, split so that one follow or like touches only the pages showing it:
    /// Who follows the user (their profile's count, their followers page).
    case followers(String)
    /// Whom the user follows (the count, the following page).
    case following(String)
    /// Whose posts the user's timeline shows (follows less blocks).
    case timeline(String)
    /// The likes on the user's posts, and which of them are hidden (every card of those posts).
    case postStats(String)
    /// `postStats` of anyone (the home page's recent posts, the site feed).
    case anyPostStats
    /// The order users registered in (the home page, the search index).
    case userOrder
    /// Which profiles, posts and pages exist (not what they say): the sitemap reads only that.
    case siteShape
}

extension Profile {
    /// What other pages show of a user (`InputKey.card`): name, icon and the bio's first line.
    var card: [String?] { [name, icon, bio?.firstLine] }
}

/// One file of the output, described before it is made.
struct PlannedFile: Sendable {
    enum Source: Sendable {
        /// A page: a template and its view, built from the site model only when the page is
        /// rendered (so a plan can be reused with a newer model after an edit).
        case page(template: String, view: @Sendable (SiteModel) -> JSONValue)
        /// Bytes made by code (sitemap, search index) or read from the theme.
        case bytes(@Sendable (SiteModel) throws(Diagnostic) -> [UInt8])
        /// An immutable file to publish as it is (a cached thumbnail), by absolute path.
        case file(String)
    }

    var path: String
    /// What the file reads (may repeat a key), in lists that files may share (the pages of a
    /// timeline share most of theirs, and a shared list is not copied): a rebuild remakes the
    /// file when any of them changed.
    var inputLists: [[InputKey]]
    var source: Source

    init(path: String, inputs: [InputKey], source: Source) {
        self.init(path: path, inputLists: [inputs], source: source)
    }

    init(path: String, inputLists: [[InputKey]], source: Source) {
        self.path = path
        self.inputLists = inputLists
        self.source = source
    }

    /// Every input the file reads.
    var inputs: FlattenSequence<[[InputKey]]> { inputLists.joined() }

    var isPage: Bool {
        if case .page = source { return true }
        return false
    }
}

/// The site of one build put together: its published part (see `PublishedSite`) and its
/// thumbnails, indexed once, with the views pages are rendered from. This is all a planned file
/// is made from, so what is not published cannot be read here.
struct SiteModel: Sendable {
    let published: PublishedSite
    let profiles: [String: Profile]
    let posts: PostIndex
    let views: PageViews
    let images: PublishedImages

    var content: SiteContent { published.content }
    var graph: SocialGraph { published.graph }
    var theme: Theme { published.theme }
    var address: SiteAddress { published.address }

    /// `posts` from the previous model, when the published posts and the graph are the same,
    /// saves indexing them again after a profile edit.
    init(published: PublishedSite, images: PublishedImages, buildDate: Date, posts reusedPosts: PostIndex? = nil) {
        let content = published.content
        let profiles = Dictionary(content.profiles.map { ($0.handle, $0) }, uniquingKeysWith: { first, _ in first })
        let posts = reusedPosts ?? PostIndex(published: content.posts)
        self.published = published
        self.profiles = profiles
        self.posts = posts
        self.images = images
        self.views = PageViews(
            content: content, profilesByHandle: profiles, labels: Labels(values: published.theme.labels), graph: published.graph,
            posts: posts, address: published.address, buildDate: buildDate, images: images.bySitePath
        )
    }

    /// The published part of `inputs`, its thumbnails made (or found in the cache), indexed.
    /// `checkingOnly` (for `tomo check`) puts every image through the same tests without making
    /// thumbnails or writing anything (`PublishedImages.inspect`).
    static func make(from inputs: SiteInputs, site: URL, buildDate: Date, checkingOnly: Bool = false) throws(DiagnosticList) -> SiteModel {
        let published = PublishedSite(inputs)
        let images = checkingOnly
            ? try PublishedImages.inspect(for: published.content, site: site)
            : try PublishedImages.make(for: published.content, site: site)
        return SiteModel(published: published, images: images, buildDate: buildDate)
    }

    /// The first `limit` users, newest first.
    func newestProfiles(limit: Int) -> [Profile] {
        var found: [Profile] = []
        for handle in graph.newestFirst {
            guard found.count < limit else { break }
            if let profile = profiles[handle] { found.append(profile) }
        }
        return found
    }
}

/// Lists every file of the site: which template renders it, or where its bytes come from, and
/// what it reads. Nothing is rendered here.
enum SitePlan {
    static func files(for model: SiteModel) -> [PlannedFile] {
        let content = model.content
        let graph = model.graph
        let posts = model.posts
        let everyPage: [InputKey] = [.site, .theme, .pageList]

        var files: [PlannedFile] = [
            PlannedFile(path: "index.html", inputs: everyPage + [.anyProfile, .anyPost, .anyPostStats, .userOrder], source: .page(template: "home") { $0.views.home(newestFirst: $0.newestProfiles(limit: $0.content.config.homeUsers)) }),
            PlannedFile(path: "404.html", inputs: everyPage, source: .page(template: "404") { $0.views.notFound() }),
        ]
        let config = content.config
        if config.publishes(.feed) {
            files.append(PlannedFile(path: "feed.xml", inputs: [.site, .theme, .anyProfile, .anyPost, .anyPostStats], source: .page(template: "feed") { $0.views.feed(Array($0.posts.newestFirst.prefix(50)), owner: nil) }))
        }
        for profile in content.profiles {
            let handle = profile.handle
            let ownPosts = posts.posts(of: handle)
            files.append(PlannedFile(path: "\(handle)/index.html", inputs: everyPage + [.profile(handle), .postsOf(handle), .postStats(handle), .followers(handle), .following(handle)], source: .page(template: "profile") { model in
                model.profiles[handle].map(model.views.profile) ?? .null
            }))
            if config.publishes(.feed) {
                files.append(PlannedFile(path: "\(handle)/feed.xml", inputs: [.site, .theme, .profile(handle), .postsOf(handle), .postStats(handle)], source: .page(template: "feed") { model in
                    model.views.feed(Array(model.posts.posts(of: handle).prefix(50)), owner: model.profiles[handle])
                }))
            }
            for post in ownPosts {
                // A post page names its owner and the people who like it.
                let id = post.id
                let likerKeys = graph.likers(of: id).map(InputKey.card)
                files.append(PlannedFile(path: "\(handle)/posts/\(post.slug)/index.html", inputs: everyPage + [.post(id), .card(handle), .postStats(handle)] + likerKeys, source: .page(template: "post") { model in
                    model.posts.byID[id].map(model.views.postPage) ?? .null
                }))
            }
            // A timeline shows the posts of everyone it follows, which decide its pages; each
            // page shows the names of the owners of its own posts only, so a renamed user's
            // followers get again only the pages holding one of that user's posts. Its pages
            // are made only when rendered.
            let owners = graph.timelineOwners(of: handle)
            let timelineKeys = everyPage + [.timeline(handle), .card(handle)] + owners.map(InputKey.postsOf) + owners.map(InputKey.postStats)
            let pageSize = content.config.pageSize
            let pageOwners = config.publishes(.timeline) ? posts.timelinePageOwners(of: handle, graph: graph, size: pageSize) : []
            let pageCount = pageOwners.count
            for (index, shown) in pageOwners.enumerated() {
                let number = index + 1
                let path = number == 1 ? "\(handle)/timeline/index.html" : "\(handle)/timeline/page/\(number)/index.html"
                files.append(PlannedFile(path: path, inputLists: [timelineKeys, shown.map(InputKey.card)], source: .page(template: "timeline") { model in
                    guard let owner = model.profiles[handle] else { return .null }
                    let page = model.posts.timelinePage(of: handle, graph: model.graph, number: number, size: pageSize)
                    return model.views.timelinePage(of: owner, posts: page, number: number, pageCount: pageCount)
                }))
            }
            // A list shows the cards of the users in it, so it reads their profiles too.
            let ownPage = everyPage + [.card(handle)]
            let followers = ownPage + [.followers(handle)] + graph.followers(of: handle).map(InputKey.card)
            let following = ownPage + [.following(handle)] + graph.following(of: handle).map(InputKey.card)
            if config.publishes(.followers) {
                files.append(PlannedFile(path: "\(handle)/followers/index.html", inputs: followers, source: .page(template: "user-list") { model in
                    model.profiles[handle].map { model.views.userList(.followers, of: $0, profiles: model.profiles) } ?? .null
                }))
            }
            if config.publishes(.following) {
                files.append(PlannedFile(path: "\(handle)/following/index.html", inputs: following, source: .page(template: "user-list") { model in
                    model.profiles[handle].map { model.views.userList(.following, of: $0, profiles: model.profiles) } ?? .null
                }))
            }
        }
        for page in content.pages {
            let name = page.name
            files.append(PlannedFile(path: "\(name)/index.html", inputs: everyPage + [.page(name)], source: .page(template: "page") { model in
                model.content.pages.first { $0.name == name }.map(model.views.freePage) ?? .null
            }))
        }
        files.append(PlannedFile(path: "sitemap.xml", inputs: [.site, .pageList, .siteShape, .anyPostStats], source: .bytes { model in
            SiteFiles.sitemap(content: model.content, postPaths: model.posts.newestFirst.map { "\($0.handle)/posts/\($0.slug)/" }, address: model.address)
        }))
        files.append(PlannedFile(path: "search.json", inputs: [.site, .anyProfile, .userOrder], source: .bytes { model in
            SiteFiles.searchIndex(newestFirst: model.graph.newestFirst, profiles: model.profiles, address: model.address)
        }))
        for path in model.theme.staticFiles.keys.sorted() {
            files.append(PlannedFile(path: path, inputs: [.staticFile(path)], source: .bytes { model throws(Diagnostic) in
                guard let bytes = model.theme.staticFiles[path]?.contents() else { throw Diagnostic("cannot read the theme file \(path)") }
                return bytes
            }))
        }
        for (path, file) in model.images.files.sorted(by: { $0.key < $1.key }) {
            // Named by their content: a path seen before holds the same bytes.
            files.append(PlannedFile(path: path, inputs: [], source: .file(file)))
        }
        return files
    }
}
