import TomoContent
import TomoCore

/// `/<handle>/timeline/` and its further pages: the posts of the user and of everyone they
/// follow (less blocks), newest first, `pageSize` a page. Plan and view side by side.
enum TimelinePages {
    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        guard model.content.config.publishes(.timeline) else { return }
        let pageSize = model.content.config.pageSize
        for profile in model.content.profiles {
            let handle = profile.handle
            // A timeline shows the posts of everyone it follows, which decide its pages; each
            // page shows the names of the owners of its own posts only, so a renamed user's
            // followers get again only the pages holding one of that user's posts.
            let owners = model.graph.timelineOwners(of: handle)
            let timelineKeys = SitePlan.everyPage + [.timeline(handle), .card(handle)] + owners.map(InputKey.postsOf) + owners.map(InputKey.postStats)
            let pageOwners = model.posts.timelinePageOwners(of: handle, graph: model.graph, size: pageSize)
            let pageCount = pageOwners.count
            for (index, shown) in pageOwners.enumerated() {
                let number = index + 1
                files.append(PlannedFile(path: path(handle, number), inputLists: [timelineKeys, shown.map(InputKey.card)], source: .page(template: "timeline") { views in
                    views.card(handle).map { views.timelinePage(of: $0, number: number, pageCount: pageCount) } ?? .null
                }))
            }
        }
    }

    /// Where page `number` (1-based) of the timeline is, relative to the site.
    static func path(_ handle: String, _ number: Int) -> String { address(handle, number) + "index.html" }

    /// The address of page `number` (1-based) of the timeline, relative to the site.
    static func address(_ handle: String, _ number: Int) -> String {
        number == 1 ? "\(handle)/timeline/" : "\(handle)/timeline/page/\(number)/"
    }
}

extension PageViews {
    /// Page `number` (1-based) of `owner`'s timeline.
    func timelinePage(of owner: UserCard, number: Int, pageCount: Int) -> JSONValue {
        let posts = timelinePage(of: owner.handle, number: number, size: config.pageSize)
        let labels = labels(in: language(of: owner))
        let heading = labels.text("timelineOf", name: owner.name)
        let pagePath = { (page: Int) in TimelinePages.address(owner.handle, page) }
        return view(
            title: number == 1 ? "\(labels.isolatingText("timelineOf", name: owner.name)) · \(config.title)"
                : "\(labels.isolatingText("timelineOf", name: owner.name)) (\(number)) · \(config.title)",
            heading: heading,
            description: nil,
            path: pagePath(number),
            type: "website",
            image: iconPreview(owner, labels: labels),
            indexing: .noindex,
            labels: labels,
            fields: [
                "owner": ownerView(owner),
                "posts": .array(posts.enumerated().map { postCard($1, position: $0, labels: labels) }),
                "hasPosts": .bool(!posts.isEmpty),
                "emptyText": .string(labels.text("noPostsInTimeline", name: owner.name)),
                "backText": .string(labels.text("backToProfile", name: owner.name)),
                "pagination": [
                    "page": .int(number),
                    "pages": .int(pageCount),
                    "isPaged": .bool(pageCount > 1),
                    "text": .string(labels.text("pageOf", count: number, total: pageCount)),
                    "newerURL": number > 1 ? .string(address.path(pagePath(number - 1))) : .null,
                    "olderURL": number < pageCount ? .string(address.path(pagePath(number + 1))) : .null,
                    "newerText": .string(labels.text("newerPosts")),
                    "olderText": .string(labels.text("olderPosts")),
                    // The way the arrows of those labels point.
                    "dir": .string(labels.direction(of: "olderPosts")),
                ],
            ]
        )
    }

    /// The `owner` object of a user's timeline and lists: whose page it is.
    func ownerView(_ owner: UserCard) -> JSONValue {
        ["handle": .string(owner.handle), "name": .string(owner.name), "url": .string(address.path(owner.handle + "/"))]
    }
}
