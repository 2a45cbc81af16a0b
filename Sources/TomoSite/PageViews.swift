import Foundation
import TomoContent
import TomoCore

/// Builds the plain data each page template receives (documented field by field in the README).
/// Templates never compute: every text, URL and flag they show is decided here.
struct PageViews: Sendable {
    let content: SiteContent
    let profilesByHandle: [String: Profile]
    let labels: Labels
    let graph: SocialGraph
    let posts: PostIndex
    let address: SiteAddress
    let buildDate: Date
    /// Published images by their path in the site (`content/users/alice/icon.jpg`).
    let images: [String: PublishedImage]

    // MARK: - Shared parts

    /// The parts every page shares, built once per model rather than once per page.
    let site: JSONValue
    /// Links to the free pages, for every page's navigation.
    let pageLinks: JSONValue
    let labelsView: JSONValue

    init(content: SiteContent, profilesByHandle: [String: Profile], labels: Labels, graph: SocialGraph, posts: PostIndex,
         address: SiteAddress, buildDate: Date, images: [String: PublishedImage]) {
        self.content = content
        self.profilesByHandle = profilesByHandle
        self.labels = labels
        self.graph = graph
        self.posts = posts
        self.address = address
        self.buildDate = buildDate
        self.images = images
        let config = content.config
        site = [
            "title": .string(config.title),
            "description": JSONValue(config.description),
            "language": .string(config.language.rawValue),
            "baseURL": .string(address.baseURL),
            "contact": JSONValue(config.contact),
            "contactHref": JSONValue(config.contact.map(URLRules.mailtoURL)),
            "feedURL": config.publishes(.feed) ? .string(address.path("feed.xml")) : .null,
        ]
        pageLinks = .array(content.pages.map { page in ["title": .string(page.title), "url": .string(address.path(page.name + "/"))] })
        labelsView = labels.view
    }

    /// The address of a page of `kind`, or null when the site does not publish that kind (so
    /// templates leave the link out).
    func link(_ kind: SiteConfig.PageKind, _ path: String) -> JSONValue {
        content.config.publishes(kind) ? .string(address.path(path)) : .null
    }

    /// The view every template receives, with `fields` added for the page at hand.
    func view(title: String, heading: String, description: String?, path: String, type: String, image: String?, fields: [String: JSONValue]) -> JSONValue {
        var view: [String: JSONValue] = [
            "site": site,
            "labels": labelsView,
            "pages": pageLinks,
            "page": [
                "title": .string(title),
                "heading": .string(heading),
                "description": JSONValue(description),
                "url": .string(address.absolute(path)),
                "path": .string(address.path(path)),
                "type": .string(type),
                "image": JSONValue(image.map(address.absolute)),
            ],
        ]
        view.merge(fields) { _, own in own }
        return .object(view)
    }

    // MARK: - Pages

    func profile(_ profile: Profile) -> JSONValue {
        let header = profile.header.flatMap { images["content/users/" + $0] }
        let icon = profile.icon.flatMap { images["content/users/" + $0] }
        let links: [JSONValue] = profile.links.map { link in
            [
                "service": .string(link.service.rawValue),
                "label": .string(link.service.label),
                "url": .string(link.url),
                "isMe": .bool(link.service.isRelMe),
                "iconPartial": .string("icons/" + link.service.rawValue),
            ]
        }
        let items: [JSONValue] = profile.items.filter { $0.isShown(at: buildDate) }.map { item in
            [
                "text": .string(item.text),
                "url": JSONValue(item.url),
                "isLink": .bool(item.url != nil),
                "background": .string(item.color.hex),
                "foreground": .string(item.color.textColor.hex),
            ]
        }
        let followers = graph.followers(of: profile.handle).count
        let following = graph.following(of: profile.handle).count
        let ownPosts = posts.posts(of: profile.handle)
        // The header (or icon) loads first; the grid's photos come after it.
        let firstPhoto = header == nil && icon == nil ? 0 : 1
        let user: JSONValue = [
            "posts": .array(ownPosts.enumerated().map { postCard($1, position: $0 + firstPhoto) }),
            "hasPosts": .bool(!ownPosts.isEmpty),
            "postsCount": .int(ownPosts.count),
            "postsText": .string(labels.text("postsCount", count: ownPosts.count)),
            "noPostsText": .string(labels.text("noPosts")),
            "timelineURL": link(.timeline, profile.handle + "/timeline/"),
            "timelineText": .string(labels.text("timeline")),
            "feedURL": link(.feed, profile.handle + "/feed.xml"),
            "followersCount": .int(followers),
            "followingCount": .int(following),
            "followersText": .string(labels.text("followersCount", count: followers)),
            "followingText": .string(labels.text("followingCount", count: following)),
            "followersURL": link(.followers, profile.handle + "/followers/"),
            "followingURL": link(.following, profile.handle + "/following/"),
            "handle": .string(profile.handle),
            "name": .string(profile.name),
            "initial": .string(Self.initial(of: profile.name)),
            "url": .string(address.path(profile.handle + "/")),
            "bioHTML": .string(profile.bio?.html ?? ""),
            "bioText": .string(profile.bio?.firstLine ?? ""),
            "icon": icon?.view(loading: header == nil ? .eager : .lazy) ?? .null,
            "header": header?.view(loading: .eager) ?? .null,
            "links": .array(links),
            "hasLinks": .bool(!links.isEmpty),
            "items": .array(items),
            "hasItems": .bool(!items.isEmpty),
            "email": JSONValue(profile.publicEmail),
            "emailHref": JSONValue(profile.publicEmail.map(URLRules.mailtoURL)),
        ]
        return view(
            title: "\(profile.name) (@\(profile.handle)) · \(content.config.title)",
            heading: profile.name,
            description: profile.bio?.firstLine,
            path: profile.handle + "/",
            type: "profile",
            image: (header ?? icon)?.path,
            fields: ["user": user]
        )
    }

    /// A user in a list; only the first card's icon loads at once.
    func card(_ profile: Profile, position: Int) -> JSONValue {
        [
            "handle": .string(profile.handle),
            "name": .string(profile.name),
            "initial": .string(Self.initial(of: profile.name)),
            "url": .string(address.path(profile.handle + "/")),
            "summary": .string(profile.bio?.firstLine ?? ""),
            "icon": profile.icon.flatMap { images["content/users/" + $0] }?.view(loading: position == 0 ? .eager : .lazy) ?? .null,
        ]
    }

    /// The followers or following page of `profile`: the users as cards.
    func userList(_ kind: UserListKind, of profile: Profile, profiles: [String: Profile]) -> JSONValue {
        let handles = kind == .followers ? graph.followers(of: profile.handle) : graph.following(of: profile.handle)
        let heading = labels.text(kind == .followers ? "followersOf" : "followedBy", name: profile.name)
        return view(
            title: "\(heading) · \(content.config.title)",
            heading: heading,
            description: nil,
            path: "\(profile.handle)/\(kind.rawValue)/",
            type: "website",
            image: nil,
            fields: [
                "owner": ["handle": .string(profile.handle), "name": .string(profile.name), "url": .string(address.path(profile.handle + "/"))],
                "users": .array(handles.compactMap { profiles[$0] }.enumerated().map { card($1, position: $0) }),
                "hasUsers": .bool(!handles.isEmpty),
                "backText": .string(labels.text("backToProfile", name: profile.name)),
                "emptyText": .string(labels.text(kind == .followers ? "noFollowers" : "noFollowing")),
            ]
        )
    }

    /// The home page; `profiles` are the users it lists (`homeUsers` of them, newest first).
    func home(newestFirst profiles: [Profile]) -> JSONValue {
        view(
            title: content.config.title,
            heading: content.config.title,
            description: content.config.description,
            path: "",
            type: "website",
            image: nil,
            fields: [
                "users": .array(profiles.enumerated().map { card($1, position: $0) }),
                "recentPosts": .array(posts.newestFirst.prefix(content.config.pageSize).enumerated().map { postCard($1, position: $0 + 1) }),
                "hasRecentPosts": .bool(!posts.newestFirst.isEmpty),
            ]
        )
    }

    func freePage(_ page: Page) -> JSONValue {
        view(
            title: "\(page.title) · \(content.config.title)",
            heading: page.title,
            description: page.description,
            path: page.name + "/",
            type: "article",
            image: nil,
            fields: ["contentHTML": .string(page.html)]
        )
    }

    func notFound() -> JSONValue {
        let heading = labels.text("notFoundTitle")
        return view(
            title: "\(heading) · \(content.config.title)",
            heading: heading,
            description: nil,
            path: "404.html",
            type: "website",
            image: nil,
            fields: [:]
        )
    }

    enum UserListKind: String, Sendable {
        case followers, following
    }

    /// The first character of a name, for a placeholder icon.
    static func initial(of name: String) -> String {
        name.first.map { String($0).uppercased() } ?? "?"
    }
}
