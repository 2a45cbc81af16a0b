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
    case profile(String)
    /// Any profile at all (the home page, the search index, the sitemap).
    case anyProfile
    case post(String)
    /// Any post at all (the home page's recent posts, the site feed).
    case anyPost
    /// `content/store.json`.
    case store
}

/// One file of the output, described before it is made.
struct PlannedFile: Sendable {
    enum Source: Sendable {
        /// A page: a template and its view, built only when the page is rendered.
        case page(template: String, view: @Sendable () -> JSONValue)
        /// Bytes made by code (sitemap, search index) or read from the theme.
        case bytes(@Sendable () throws(Diagnostic) -> [UInt8])
        /// An immutable file to publish as it is (a cached thumbnail).
        case file(URL)
    }

    var path: String
    var inputs: Set<InputKey>
    var source: Source

    var isPage: Bool {
        if case .page = source { return true }
        return false
    }
}

/// Lists every file of the site: which template renders it with which view, or where its bytes
/// come from. Nothing is rendered here.
enum SitePlan {
    static func files(for inputs: SiteInputs, images: PublishedImages, buildDate: Date) -> [PlannedFile] {
        let content = inputs.content
        let profiles = Dictionary(content.profiles.map { ($0.handle, $0) }, uniquingKeysWith: { first, _ in first })
        let graph = SocialGraph(store: inputs.store, profiles: Set(profiles.keys))
        let posts = PostIndex(posts: content.posts, profiles: Set(profiles.keys), graph: graph)
        let views = PageViews(
            content: content, profilesByHandle: profiles, labels: Labels(values: inputs.theme.labels), graph: graph,
            posts: posts, address: inputs.address, buildDate: buildDate, images: images.bySitePath
        )
        let newestFirst = graph.newestFirst.compactMap { profiles[$0] }
        let everyPage: Set<InputKey> = [.site, .theme, .pageList]

        var files: [PlannedFile] = [
            PlannedFile(path: "index.html", inputs: everyPage.union([.anyProfile, .anyPost, .store]), source: .page(template: "home") { views.home(newestFirst: newestFirst) }),
            PlannedFile(path: "feed.xml", inputs: [.site, .theme, .anyProfile, .anyPost], source: .page(template: "feed") { views.feed(Array(posts.newestFirst.prefix(50)), owner: nil) }),
            PlannedFile(path: "404.html", inputs: everyPage, source: .page(template: "404") { views.notFound() }),
        ]
        for profile in content.profiles {
            let handle = profile.handle
            let ownPosts = posts.posts(of: handle)
            let postKeys = Set(ownPosts.map { InputKey.post($0.id) })
            files.append(PlannedFile(path: "\(handle)/index.html", inputs: everyPage.union([.profile(handle), .store]).union(postKeys), source: .page(template: "profile") { views.profile(profile) }))
            files.append(PlannedFile(path: "\(handle)/feed.xml", inputs: Set([.site, .theme, .profile(handle)]).union(postKeys), source: .page(template: "feed") { views.feed(Array(ownPosts.prefix(50)), owner: profile) }))
            for post in ownPosts {
                // A post page names its owner and the people who like it.
                let likerKeys = graph.likers(of: post.id).map(InputKey.profile)
                files.append(PlannedFile(path: "\(handle)/posts/\(post.slug)/index.html", inputs: everyPage.union([.post(post.id), .profile(handle), .store]).union(likerKeys), source: .page(template: "post") { views.postPage(post) }))
            }
            let timeline = posts.timeline(of: handle, graph: graph)
            let timelineKeys = everyPage.union([.profile(handle), .store]).union(timeline.map { InputKey.post($0.id) }).union(graph.timelineOwners(of: handle).map(InputKey.profile))
            let pages = PostIndex.pages(of: timeline, size: content.config.pageSize)
            for (index, page) in pages.enumerated() {
                let path = index == 0 ? "\(handle)/timeline/index.html" : "\(handle)/timeline/page/\(index + 1)/index.html"
                files.append(PlannedFile(path: path, inputs: timelineKeys.union([.anyPost]), source: .page(template: "timeline") { views.timelinePage(of: profile, posts: page, number: index + 1, pageCount: pages.count) }))
            }
            // A list shows the cards of the users in it, so it reads their profiles too.
            let ownPage = everyPage.union([.profile(handle), .store])
            let followers = ownPage.union(graph.followers(of: handle).map(InputKey.profile))
            let following = ownPage.union(graph.following(of: handle).map(InputKey.profile))
            files.append(PlannedFile(path: "\(handle)/followers/index.html", inputs: followers, source: .page(template: "user-list") { views.userList(.followers, of: profile, profiles: profiles) }))
            files.append(PlannedFile(path: "\(handle)/following/index.html", inputs: following, source: .page(template: "user-list") { views.userList(.following, of: profile, profiles: profiles) }))
        }
        for page in content.pages {
            files.append(PlannedFile(path: "\(page.name)/index.html", inputs: everyPage.union([.page(page.name)]), source: .page(template: "page") { views.freePage(page) }))
        }
        let address = inputs.address
        let postPaths = posts.newestFirst.map { "\($0.handle)/posts/\($0.slug)/" }
        files.append(PlannedFile(path: "sitemap.xml", inputs: [.site, .anyProfile, .anyPost, .pageList], source: .bytes { SiteFiles.sitemap(content: content, postPaths: postPaths, address: address) }))
        files.append(PlannedFile(path: "search.json", inputs: [.site, .anyProfile, .store], source: .bytes { SiteFiles.searchIndex(newestFirst: newestFirst, address: address) }))
        for (path, file) in inputs.theme.staticFiles.sorted(by: { $0.key < $1.key }) {
            files.append(PlannedFile(path: path, inputs: [.staticFile(path)], source: .bytes { () throws(Diagnostic) in
                guard let bytes = file.contents() else { throw Diagnostic("cannot read the theme file \(path)") }
                return bytes
            }))
        }
        for (path, file) in images.files.sorted(by: { $0.key < $1.key }) {
            // Named by their content: a path seen before holds the same bytes.
            files.append(PlannedFile(path: path, inputs: [], source: .file(file)))
        }
        return files
    }
}
