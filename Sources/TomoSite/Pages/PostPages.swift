import TomoContent
import TomoCore

/// `/<handle>/posts/<slug>/`: one photo post with its caption, owner and likers; and the post
/// card that grids, timelines and the home page show. Plan and view side by side.
enum PostPages {
    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        for post in model.content.posts {
            // A post page names its owner and the people who like it.
            let id = post.id
            let likerKeys = model.graph.likers(of: id).map(InputKey.card)
            files.append(PlannedFile(
                path: "\(post.handle)/posts/\(post.slug)/index.html",
                inputLists: [SitePlan.everyPage, [.post(id), .card(post.handle), .postStats(post.handle)] + likerKeys],
                source: .page(template: "post") { views in views.post(id).map(views.postPage) ?? .null }
            ))
        }
    }
}

extension PageViews {
    func postURL(_ post: Post) -> String { address.path("\(post.handle)/posts/\(post.slug)/") }

    /// A post in a grid or a timeline; only the first card's photo loads at once.
    func postCard(_ post: Post, position: Int, labels: Labels) -> JSONValue {
        let language = labels.language
        let kept = shared(.postCard(post.id, language: language)) { views in
            // Everything the card shows is read here, through `views`: a card is taken over by
            // the next model only while nothing it read changed (`PageViews.takeOver`).
            views.makePostCard(views.post(post.id) ?? post, labels: views.labels(in: language))
        }
        return kept.view(photo: cardImage(photo(of: post), position: position))
    }

    /// The card of `post`, without its photo.
    private func makePostCard(_ post: Post, labels: Labels) -> PostCard {
        let likes = likers(of: post).count
        return PostCard(
            id: post.id,
            url: postURL(post),
            handle: post.handle,
            ownerName: card(post.handle)?.name ?? post.handle,
            ownerURL: address.path(post.handle + "/"),
            alt: post.alt ?? "",
            caption: post.caption.firstLine,
            likeCount: likes,
            likesText: labels.text("likesCount", count: likes),
            dateText: labels.date(post.date, utcOffset: post.utcOffset),
            datetime: PostDates.rfc3339(post.date, utcOffset: post.utcOffset)
        )
    }

    func postPage(_ post: Post) -> JSONValue {
        let owner = card(post.handle)
        let labels = labels(in: language(of: owner))
        // Its own card, made for it and not kept with the cards grids and timelines share: the
        // page is its only reader (a first build kept one for each of 100,000 posts).
        var fields = makePostCard(post, labels: labels).fields(photo: cardImage(photo(of: post), position: 0))
        let likers = likers(of: post)
        fields["captionHTML"] = .string(post.caption.html)
        fields["likers"] = .array(cardViews(likers, firstPosition: 1))
        fields["hasLikers"] = .bool(likers.contains { card($0) != nil })
        fields["ownerIcon"] = owner?.icon?.view(loading: .lazy, at: address) ?? .null
        fields["ownerInitial"] = .string(Self.initial(of: owner?.name ?? post.handle))
        let name = owner?.name ?? post.handle
        let title = post.caption.firstLine.isEmpty ? labels.text("photoBy", name: name) : post.caption.firstLine
        let ownTitle: IsolatingText = post.caption.firstLine.isEmpty ? labels.isolatingText("photoBy", name: name) : "\(title)"
        let published = PostDates.rfc3339(post.date, utcOffset: post.utcOffset)
        let photo = photo(of: post).map { PreviewImage($0, alt: post.alt ?? labels.isolatingText("photoBy", name: name).description) }
        let path = "\(post.handle)/posts/\(post.slug)/"
        let jsonLD = ScriptJSON.schema("SocialMediaPosting", [
            "url": .string(address.absolute(path)),
            "headline": .string(title),
            "datePublished": .string(published),
            "author": owner.map { personLD($0) },
            "image": photo.map { photo in
                ScriptJSON.thing("ImageObject", [
                    "contentUrl": .string(address.absolute(photo.path)),
                    "width": .int(photo.width),
                    "height": .int(photo.height),
                    "description": .string(photo.alt),
                ])
            },
        ])
        return view(
            title: "\(ownTitle) · \(name) · \(config.title)",
            heading: title,
            description: post.alt ?? post.caption.firstLine,
            path: path,
            type: "article",
            image: shareCard(of: post) ?? photo,
            labels: labels,
            meta: [
                "publishedTime": .string(published),
                "fediverseCreator": JSONValue(owner?.fediverseCreator),
                "jsonLD": .string(ScriptJSON.text(jsonLD)),
            ],
            fields: ["post": .object(fields)]
        )
    }
}

/// A post's card as grids and timelines show it, without its photo. Kept as plain fields, not
/// as a view: one is kept for each post a build shows (100,000 at 10,000 users), and a table of
/// fields each held more memory than anything else at the preview's peak.
struct PostCard: Sendable {
    var id: String
    var url: String
    var handle: String
    var ownerName: String
    var ownerURL: String
    var alt: String
    var caption: String
    var likeCount: Int
    var likesText: String
    var dateText: String
    var datetime: String

    /// The card's fields for a template, with `photo`.
    func fields(photo: JSONValue) -> [String: JSONValue] {
        [
            "id": .string(id),
            "url": .string(url),
            "handle": .string(handle),
            "ownerName": .string(ownerName),
            "ownerURL": .string(ownerURL),
            "alt": .string(alt),
            "caption": .string(caption),
            "likeCount": .int(likeCount),
            "likesText": .string(likesText),
            "dateText": .string(dateText),
            "datetime": .string(datetime),
            "photo": photo,
        ]
    }

    func view(photo: JSONValue) -> JSONValue { .object(fields(photo: photo)) }
}
