import Foundation
import TomoContent
import TomoCore
import TomoImages

/// The share card (`ShareCard`, the 1200×630 link-preview image) of every published profile and
/// post, drawn (or found in the cache) on all cores. Made only from a `PublishedSite`'s content
/// and its `PublishedImages`, so no card can show, or exist for, anything unpublished.
struct PublishedCards: Sendable {
    /// One card as pages name it.
    struct Card: Sendable, Hashable {
        /// What it shows, and so its name.
        var shown: ShareCard
        /// Its path in the site (`media/alice/card-3fa01c9e.jpg`).
        var path: String
        /// The cached file.
        var file: String
    }

    private(set) var profiles: [String: Card] = [:]
    /// By post id.
    private(set) var posts: [String: Card] = [:]
    /// Output path → the cached card's path.
    private(set) var files: [String: String] = [:]

    /// Draws the cards of `content` that the cache lacks. A card that `previous` has for the
    /// same profile or post, showing the same, is kept without a look at the cache.
    static func make(for content: SiteContent, images: PublishedImages, site: URL, reusing previous: PublishedCards? = nil) throws(DiagnosticList) -> PublishedCards {
        let maker: ShareCardMaker
        do {
            maker = try ShareCardMaker(cacheFolder: site.appendingPathComponent(".tomo-cache/cards"))
        } catch {
            throw DiagnosticList([error])
        }
        return try collect(content, images: images, reusing: previous) { cards in maker.make(cards) }
    }

    /// What `make` would publish, for `tomo check`: the same cards named, none drawn, nothing
    /// written.
    static func inspect(for content: SiteContent, images: PublishedImages) throws(DiagnosticList) -> PublishedCards {
        try collect(content, images: images, reusing: nil) { cards in cards.map { _ in .success("") } }
    }

    private enum Owner: Hashable {
        case profile(String)
        case post(String)
    }

    private static func collect(
        _ content: SiteContent, images: PublishedImages, reusing previous: PublishedCards?,
        draw: ([ShareCard]) -> [Result<String, Diagnostic>]
    ) throws(DiagnosticList) -> PublishedCards {
        let wanted = shown(content, images: images)
        var cards = PublishedCards()
        var toDraw: [(owner: Owner, shown: ShareCard, path: String)] = []
        for (owner, stem, shown) in wanted {
            if let kept = previous?.card(of: owner), kept.shown == shown {
                cards.add(kept, for: owner)
                continue
            }
            do {
                toDraw.append((owner, shown, "media/\(shown.handle)/\(stem)-\(try ShareCardMaker.key(of: shown).prefix(8)).jpg"))
            } catch {
                throw DiagnosticList([error])
            }
        }
        var problems: [Diagnostic] = []
        for (entry, result) in zip(toDraw, draw(toDraw.map(\.shown))) {
            switch result {
            case .success(let file): cards.add(Card(shown: entry.shown, path: entry.path, file: file), for: entry.owner)
            case .failure(let error): problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return cards
    }

    /// What each published profile's and post's card shows, with the start of its file name
    /// (`card` for a profile, `<slug>-card` for a post).
    private static func shown(_ content: SiteContent, images: PublishedImages) -> [(Owner, stem: String, ShareCard)] {
        guard content.config.publishes(.cards) else { return [] }
        let shownImages = images.bySitePath
        func picture(_ sitePath: String?) -> ShareCard.Picture? {
            guard let sitePath, let image = shownImages[sitePath], image.width > 0 else { return nil }
            // Each JPEG thumbnail has the picture's shape, so its height follows from its width.
            let files = image.jpegSources.compactMap { source in
                image.files.first(where: { $0.path == source.path }).map { file in ShareCard.Picture.File(path: file.file.text, width: source.width, height: image.height * source.width / image.width) }
            }
            return files.isEmpty ? nil : ShareCard.Picture(files: files, identity: image.path)
        }
        var profiles: [String: Profile] = [:]
        var cards: [(Owner, stem: String, ShareCard)] = []
        for profile in content.profiles {
            profiles[profile.handle] = profile
            cards.append((.profile(profile.handle), "card", ShareCard(
                layout: .profile,
                picture: picture(profile.header.map(ContentPath.userFile)),
                icon: picture(profile.icon.map(ContentPath.userFile)),
                title: profile.name, name: "", handle: profile.handle,
                text: firstLine(of: profile.bio?.plainText ?? ""),
                language: (profile.language ?? content.config.language).text
            )))
        }
        for post in content.posts {
            let owner = profiles[post.handle]
            cards.append((.post(post.id), "\(post.slug)-card", ShareCard(
                layout: .post,
                picture: picture(post.photoFile),
                icon: picture(owner?.icon.map(ContentPath.userFile)),
                title: post.caption.firstLine, name: owner?.name ?? post.handle, handle: post.handle, text: "",
                language: (owner?.language ?? content.config.language).text
            )))
        }
        return cards
    }

    /// The first line of `text` that is not blank.
    static func firstLine(of text: String) -> String {
        text.split(whereSeparator: \.isNewline).lazy.map { $0.trimmingWhitespace() }.first { !$0.isEmpty } ?? ""
    }

    private func card(of owner: Owner) -> Card? {
        switch owner {
        case .profile(let handle): profiles[handle]
        case .post(let id): posts[id]
        }
    }

    private mutating func add(_ card: Card, for owner: Owner) {
        switch owner {
        case .profile(let handle): profiles[handle] = card
        case .post(let id): posts[id] = card
        }
        files[card.path] = card.file
    }
}
