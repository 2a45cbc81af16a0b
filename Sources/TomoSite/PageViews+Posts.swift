import Foundation
import TomoContent
import TomoCore

/// The views of posts: cards in grids and timelines, post pages, timeline pages and feeds.
extension PageViews {
    func postURL(_ post: Post) -> String { address.path("\(post.handle)/posts/\(post.slug)/") }

    /// A post in a grid or a timeline; only the first card's photo loads at once.
    func postCard(_ post: Post, position: Int) -> JSONValue {
        let likes = graph.likers(of: post.id).count
        let owner = profilesByHandle[post.handle]
        return [
            "id": .string(post.id),
            "url": .string(postURL(post)),
            "handle": .string(post.handle),
            "ownerName": .string(owner?.name ?? post.handle),
            "ownerURL": .string(address.path(post.handle + "/")),
            "photo": images[post.photoFile]?.view(loading: position == 0 ? .eager : .lazy) ?? .null,
            "alt": .string(post.alt ?? ""),
            "caption": .string(post.caption.firstLine),
            "likeCount": .int(likes),
            "likesText": .string(labels.text("likesCount", count: likes)),
            "dateText": .string(PostDates.display(post.date, utcOffset: post.utcOffset, language: content.config.language.rawValue)),
            "datetime": .string(PostDates.rfc3339(post.date, utcOffset: post.utcOffset)),
        ]
    }

    func postPage(_ post: Post) -> JSONValue {
        guard case .object(var fields) = postCard(post, position: 0) else { return .null }
        let likers = graph.likers(of: post.id).compactMap { profilesByHandle[$0] }
        let owner = profilesByHandle[post.handle]
        fields["captionHTML"] = .string(post.caption.html)
        fields["likers"] = .array(likers.enumerated().map { card($1, position: $0 + 1) })
        fields["hasLikers"] = .bool(!likers.isEmpty)
        fields["ownerIcon"] = owner?.icon.flatMap { images["content/users/" + $0] }?.view(loading: .lazy) ?? .null
        fields["ownerInitial"] = .string(Self.initial(of: owner?.name ?? post.handle))
        let name = owner?.name ?? post.handle
        let title = post.caption.firstLine.isEmpty ? labels.text("photoBy", name: name) : post.caption.firstLine
        return view(
            title: "\(title) · \(name) · \(content.config.title)",
            heading: title,
            description: post.alt ?? post.caption.firstLine,
            path: "\(post.handle)/posts/\(post.slug)/",
            type: "article",
            image: images[post.photoFile]?.path,
            fields: ["post": .object(fields)]
        )
    }

    /// Page `number` (1-based) of `profile`'s timeline.
    func timelinePage(of profile: Profile, posts: [Post], number: Int, pageCount: Int) -> JSONValue {
        let heading = labels.text("timelineOf", name: profile.name)
        let base = profile.handle + "/timeline/"
        let pagePath = { (page: Int) in page == 1 ? base : base + "page/\(page)/" }
        return view(
            title: number == 1 ? "\(heading) · \(content.config.title)" : "\(heading) (\(number)) · \(content.config.title)",
            heading: heading,
            description: nil,
            path: pagePath(number),
            type: "website",
            image: nil,
            fields: [
                "owner": ["handle": .string(profile.handle), "name": .string(profile.name), "url": .string(address.path(profile.handle + "/"))],
                "posts": .array(posts.enumerated().map { postCard($1, position: $0) }),
                "hasPosts": .bool(!posts.isEmpty),
                "emptyText": .string(labels.text("noPostsInTimeline", name: profile.name)),
                "backText": .string(labels.text("backToProfile", name: profile.name)),
                "pagination": [
                    "page": .int(number),
                    "pages": .int(pageCount),
                    "isPaged": .bool(pageCount > 1),
                    "text": .string(labels.text("pageOf", count: number, total: pageCount)),
                    "newerURL": number > 1 ? .string(address.path(pagePath(number - 1))) : .null,
                    "olderURL": number < pageCount ? .string(address.path(pagePath(number + 1))) : .null,
                    "newerText": .string(labels.text("newerPosts")),
                    "olderText": .string(labels.text("olderPosts")),
                ],
            ]
        )
    }

    /// An Atom feed of `posts`: the whole site's (`owner` nil) or one user's.
    func feed(_ posts: [Post], owner: Profile?) -> JSONValue {
        let language = content.config.language.rawValue
        let path = owner.map { $0.handle + "/feed.xml" } ?? "feed.xml"
        let alternate = owner.map { $0.handle + "/" } ?? ""
        let entries: [JSONValue] = posts.map { post in
            let name = profilesByHandle[post.handle]?.name ?? post.handle
            let image = images[post.photoFile]
            var html = ""
            if let image {
                html += "<p><img src=\"\(SiteFiles.escapeMarkup(address.absolute(image.path)))\" width=\"\(image.width)\" height=\"\(image.height)\" alt=\"\(SiteFiles.escapeMarkup(post.alt ?? ""))\"></p>\n"
            }
            html += post.caption.html
            let published = PostDates.rfc3339(post.date, utcOffset: post.utcOffset)
            return [
                "id": .string(address.absolute("\(post.handle)/posts/\(post.slug)/")),
                "title": .string(post.caption.firstLine.isEmpty ? labels.text("photoBy", name: name) : post.caption.firstLine),
                "url": .string(address.absolute("\(post.handle)/posts/\(post.slug)/")),
                "published": .string(published),
                "updated": .string(published),
                "authorName": .string(name),
                "authorURL": .string(address.absolute(post.handle + "/")),
                "contentHTML": .string(html),
            ]
        }
        let updated = posts.first.map { PostDates.rfc3339($0.date, utcOffset: $0.utcOffset) } ?? "1970-01-01T00:00:00Z"
        return [
            "site": site,
            "feed": [
                "id": .string(address.absolute(path)),
                "title": .string(owner.map { "\($0.name) · \(content.config.title)" } ?? content.config.title),
                "subtitle": JSONValue(owner?.bio?.firstLine ?? content.config.description),
                "selfURL": .string(address.absolute(path)),
                "alternateURL": .string(address.absolute(alternate)),
                "updated": .string(updated),
                "language": .string(language),
                "authorName": .string(owner?.name ?? content.config.title),
            ],
            "entries": .array(entries),
        ]
    }
}
