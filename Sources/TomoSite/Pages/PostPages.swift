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

    /// A post's title, decided here only: its caption's first line, or "Photo by NAME"
    /// (`photoBy`) when it has no caption. It is the post page's heading and `<title>`, a feed
    /// entry's title, and the name of a card's link to the post when its photo has no alt text.
    /// `isolating` is the title for a `<title>` or an attribute (`IsolatingText`), shortened
    /// (`shortTitle`) as a browser tab or a search result shows it.
    static func postTitle(_ post: Post, ownerName: String, labels: Labels) -> (text: String, isolating: IsolatingText) {
        let caption = post.caption.firstLine
        guard caption.isEmpty else { return (caption, "\(shortTitle(caption))") }
        return (labels.text("photoBy", name: ownerName), labels.isolatingText("photoBy", name: ownerName))
    }

    /// The longest title a page's `<title>` and its structured data's headline carry, in
    /// characters: about what a browser tab or a search result shows.
    static let titleLimit = 70

    /// `text` when it has at most `titleLimit` characters; otherwise its start, cut after the
    /// last whole word that fits (or at the limit, for a text with no space in its second half,
    /// as Japanese is written) and ended with "…".
    static func shortTitle(_ text: String) -> String {
        // Counted only as far as the limit: a caption may be long.
        guard !text.dropFirst(titleLimit).isEmpty else { return text }
        // One character more, so that a word ending at the limit is kept whole.
        let reach = text.prefix(titleLimit + 1)
        var head = text.prefix(titleLimit)
        if let space = reach.lastIndex(where: \.isWhitespace), reach.distance(from: reach.startIndex, to: space) >= titleLimit / 2 {
            head = reach[..<space]
        }
        while head.last?.isWhitespace == true { head = head.dropLast() }
        return head + "…"
    }

    /// The card of `post`, without its photo.
    private func makePostCard(_ post: Post, labels: Labels) -> PostCard {
        let likes = likers(of: post).count
        let owner = card(post.handle)
        let ownerName = owner?.name ?? post.handle
        return PostCard(
            id: post.id,
            url: postURL(post),
            handle: post.handle,
            ownerName: ownerName,
            ownerURL: address.path(post.handle + "/"),
            language: language(of: owner).text,
            alt: post.alt ?? "",
            caption: post.caption.firstLine,
            title: Self.postTitle(post, ownerName: ownerName, labels: labels).text,
            likeCount: likes,
            likesText: labels.text("likesCount", count: likes),
            dateText: PostDates.display(of: post, labels: labels),
            datetime: PostDates.htmlDatetime(of: post)
        )
    }

    func postPage(_ post: Post) -> JSONValue {
        let owner = card(post.handle)
        let labels = labels(in: language(of: owner))
        // Its own card, made for it and not kept with the cards grids and timelines share: the
        // page is its only reader (a first build kept one for each of 100,000 posts).
        var fields = makePostCard(post, labels: labels).fields(photo: cardImage(photo(of: post), position: 0))
        let likers = likers(of: post)
        fields["captionHTML"] = .string(MarkdownLinks.underRoot(post.caption.html, address: address))
        fields["likers"] = .array(cardViews(likers, firstPosition: 1))
        fields["hasLikers"] = .bool(likers.contains { card($0) != nil })
        fields["ownerIcon"] = owner?.icon?.view(loading: .lazy, at: address) ?? .null
        fields["ownerInitial"] = .string(Self.initial(of: owner?.name ?? post.handle))
        let name = owner?.name ?? post.handle
        let (title, ownTitle) = Self.postTitle(post, ownerName: name, labels: labels)
        let published = PostDates.rfc3339(of: post)
        let photo = photo(of: post).map { PreviewImage($0, alt: post.alt ?? labels.isolatingText("photoBy", name: name).description) }
        let path = "\(post.handle)/posts/\(post.slug)/"
        let jsonLD = ScriptJSON.schema("SocialMediaPosting", [
            "url": .string(address.absolute(path)),
            "headline": .string(Self.shortTitle(title)),
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
    /// The owner's language (`PageViews.language(of:)`), which their name and caption are
    /// written in, whatever the page's.
    var language: String
    var alt: String
    var caption: String
    /// `PageViews.postTitle`: the caption's first line, or "Photo by NAME".
    var title: String
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
            "language": .string(language),
            "alt": .string(alt),
            "caption": .string(caption),
            "title": .string(title),
            "likeCount": .int(likeCount),
            "likesText": .string(likesText),
            "dateText": .string(dateText),
            "datetime": .string(datetime),
            "photo": photo,
        ]
    }

    func view(photo: JSONValue) -> JSONValue { .object(fields(photo: photo)) }
}
