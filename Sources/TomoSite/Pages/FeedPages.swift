import Foundation
import TomoContent
import TomoCore

/// `/feed.xml` (the site's newest posts) and `/<handle>/feed.xml` (one user's): Atom feeds of
/// the 50 newest posts. Plan and view side by side.
enum FeedPages {
    static let entryCount = 50
    /// What the site feed says it was updated while the site has neither a published post nor
    /// a registered user, so no date at all: Atom needs one, plausible (after 1995, as
    /// scripts/check_feeds.py requires) and the same at every build (a build date would change
    /// the file every time).
    static let undatedUpdate = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
    /// What the site feed's `<updated>` reads (`PageViews.siteUpdated`).
    static let siteDateInputs: [InputKey] = [.anyPost, .userOrder]

    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        guard model.content.config.publishes(.feed) else { return }
        files.append(PlannedFile(path: "feed.xml", inputs: [.site, .theme, .anyCard] + siteDateInputs, source: .page(template: "feed") { views in
            views.feed(Array(views.newestPosts.prefix(entryCount)), owner: nil)
        }))
        for profile in model.content.profiles {
            files.append(userFeed(of: profile.handle, at: "\(profile.handle)/feed.xml", in: model))
        }
    }

    /// `handle`'s feed, at `path` (its own, or an address they left: `RedirectPages`).
    static func userFeed(of handle: String, at path: String, in model: SiteModel, alsoReading extra: [InputKey] = []) -> PlannedFile {
        // Only a feed with neither an entry nor its owner's registration reads the site's dates
        // (see `feed`); both shape the plan, so this holds as long as the plan does.
        let undated = model.posts.posts(of: handle).isEmpty && model.graph.registration(of: handle) == nil
        let inputs: [InputKey] = [.site, .theme, .card(handle), .postsOf(handle), .registration(handle)] + (undated ? siteDateInputs : []) + extra
        return PlannedFile(path: path, inputs: inputs, source: .page(template: "feed") { views in
            views.feed(Array(views.posts(of: handle).prefix(entryCount)), owner: views.card(handle))
        })
    }
}

extension PageViews {
    /// An Atom feed of `posts`: the whole site's (`owner` nil) or one user's.
    func feed(_ posts: [Post], owner: UserCard?) -> JSONValue {
        let config = config
        let address = address
        let path = owner.map { $0.handle + "/feed.xml" } ?? "feed.xml"
        let alternate = owner.map { $0.handle + "/" } ?? ""
        let entries: [JSONValue] = posts.map { post in
            let author = card(post.handle)
            let name = author?.name ?? post.handle
            // Each entry in its author's language: the site feed mixes them.
            let language = language(of: author)
            let image = photo(of: post)
            var html = ""
            if let image {
                html += "<p><img src=\"\(MarkupText.escaped(address.absolute(image.path)))\" width=\"\(image.width)\" height=\"\(image.height)\" alt=\"\(MarkupText.escaped(post.alt ?? ""))\"></p>\n"
            }
            let url = address.absolute("\(post.handle)/posts/\(post.slug)/")
            html += MarkdownLinks.absolute(post.caption.html, page: url, address: address)
            let published = PostDates.rfc3339(of: post)
            return [
                "id": .string(FeedIDs.entry(post, registration: registration(of: post.handle), address: address)),
                "title": .string(Self.postTitle(post, ownerName: name, labels: labels(in: language)).text),
                "url": .string(url),
                "published": .string(published),
                "updated": .string(published),
                "authorName": .string(name),
                "authorURL": .string(address.absolute(post.handle + "/")),
                "contentHTML": .string(html),
                "language": .string(language.text),
            ]
        }
        let ownerRegistration = owner.flatMap { registration(of: $0.handle) }
        // Without entries: when the owner registered; without that either (a profile the store
        // does not know), or for the site feed, the site's newest date.
        let updated = posts.first.map { PostDates.rfc3339(of: $0) }
            ?? ownerRegistration.map { PostDates.rfc3339($0.date, utcOffset: 0) }
            ?? siteUpdated
        // The site's feed keeps its URL as its id: no rename changes it.
        let id = owner == nil ? nil : FeedIDs.feed(registration: ownerRegistration, address: address)
        return [
            "site": site,
            "feed": [
                "id": .string(id ?? address.absolute(path)),
                // A feed reader shows it as plain text: each value isolated (`IsolatingText`).
                "title": .string(owner.map { IsolatingText("\($0.name) · \(config.title)").description } ?? config.title),
                "subtitle": JSONValue(owner?.summary ?? config.description),
                "selfURL": .string(address.absolute(path)),
                "alternateURL": .string(address.absolute(alternate)),
                "updated": .string(updated),
                "language": .string((owner.map { language(of: $0) } ?? config.language).text),
                "authorName": .string(owner?.name ?? config.title),
            ],
            "entries": .array(entries),
        ]
    }

    /// The site feed's `<updated>`: its newest post's date, else the latest registration of a
    /// user with a profile, else `FeedPages.undatedUpdate` (reads `FeedPages.siteDateInputs`).
    var siteUpdated: String {
        if let newest = newestPosts.first { return PostDates.rfc3339(of: newest) }
        return PostDates.rfc3339(newestRegistration ?? FeedPages.undatedUpdate, utcOffset: 0)
    }
}
