import Foundation
import Synchronization
import TomoContent
import TomoCore
import TomoImages
import TomoTemplates

/// What pages are made from: the site model, read only through the accessors below, each of
/// which names the input (`InputKey`) it reads. The page kinds (`ProfilePages`, `PostPages`…)
/// build their template views from these alone; the stored parts are private to this file, so
/// the compiler keeps them from reading the model any other way.
///
/// In a debug build every page is rendered with a `ReadLog`, and `SiteRenderer` fails the build
/// when a page read an input its plan does not name: a page that would be left stale after an
/// edit is a failing test, not a silent mistake.
struct PageViews: Sendable {
    private let published: PublishedSite
    private var content: SiteContent { published.content }
    /// The labels of the site's language and of every profile's own, made once per model.
    private let labelsByLanguage: [LanguageTag: Labels]
    private let labelFiles: LabelFiles
    private let graph: SocialGraph
    private let postIndex: PostIndex
    private let siteAddress: SiteAddress
    private let buildDate: Date
    /// Published images by their path in the site (`content/users/alice/icon.jpg`).
    private let images: [String: PublishedImage]
    private let shareCards: PublishedCards
    private let theme: Theme
    /// Old handle → the handle its addresses redirect to.
    private let renamed: [String: String]
    private let rootFolder: RootFolder
    /// The parts every page shares, built once per model rather than once per page.
    private let siteView: JSONValue
    private let pageLinks: JSONValue
    /// Where the page being made records what it reads; nil outside debug builds.
    private var log: ReadLog?
    /// The cards many pages show alike, made once for this model (see `shared`).
    private let sharedViews = SharedViews()

    init(published: PublishedSite, posts: PostIndex, buildDate: Date, images: [String: PublishedImage], icons: [IconMaker.Icon], cards: PublishedCards) {
        self.published = published
        labelFiles = published.theme.labelFiles
        let languages = Set([published.content.config.language] + published.content.profiles.compactMap(\.language))
        labelsByLanguage = Dictionary(uniqueKeysWithValues: languages.map { ($0, Labels($0, files: published.theme.labelFiles)) })
        graph = published.graph
        postIndex = posts
        siteAddress = published.address
        self.buildDate = buildDate
        self.images = images
        shareCards = cards
        theme = published.theme
        renamed = published.redirects
        rootFolder = published.rootFolder
        let config = published.content.config
        let address = published.address
        siteView = [
            "title": .string(config.title),
            "description": JSONValue(config.description),
            "language": .string(config.language.text),
            "baseURL": .string(address.baseURL),
            // The base path ending in `/`, for the paths a template writes itself
            // (`{{site.root}}static/style.css`).
            "root": .string(address.root),
            "contact": JSONValue(config.contact),
            "contactHref": JSONValue(config.contact.map(URLRules.mailtoURL)),
            "feedURL": config.publishes(.feed) ? .string(address.path("feed.xml")) : .null,
            "locale": JSONValue(LanguageRules.of(config.language).openGraphLocale),
            "direction": JSONValue(LanguageRules.of(config.language).direction),
            "icons": Self.iconLinks(icons, address: address),
            "params": .object(config.params),
        ]
        pageLinks = .array(published.content.pages.map { page in ["title": .string(page.title), "url": .string(address.path(page.name + "/"))] })
    }

    /// Every page's `<link rel="icon">` set: the site icon's sizes (180 for Apple's home screen),
    /// or the theme's SVG when site.yaml names none.
    private static func iconLinks(_ icons: [IconMaker.Icon], address: SiteAddress) -> JSONValue {
        guard !icons.isEmpty else {
            return [["rel": "icon", "type": "image/svg+xml", "sizes": "any", "href": .string(address.path("static/icon.svg"))]]
        }
        return .array(icons.map { icon in
            [
                "rel": .string(icon.size == 180 ? "apple-touch-icon" : "icon"), "type": "image/png",
                "sizes": .string("\(icon.size)x\(icon.size)"), "href": .string(address.path(PublishedImages.iconPath(icon))),
            ]
        })
    }

    /// These views, recording every read into `log`.
    func recording(into log: ReadLog) -> PageViews {
        var copy = self
        copy.log = log
        return copy
    }

    private func read(_ key: InputKey) { log?.record(key) }

    // MARK: - Site-wide inputs

    /// `site.yaml` and the base URL (`InputKey.site`).
    var config: SiteConfig {
        read(.site)
        return content.config
    }

    var address: SiteAddress {
        read(.site)
        return siteAddress
    }

    /// The `site` object every template receives.
    var site: JSONValue {
        read(.site)
        return siteView
    }

    /// The theme's labels and dates in the site's language (`InputKey.site`, `.theme`).
    var labels: Labels {
        labels(in: config.language)
    }

    /// The theme's labels and dates in `language` (`InputKey.theme`).
    func labels(in language: LanguageTag) -> Labels {
        read(.theme)
        return labelsByLanguage[language] ?? Labels(language, files: labelFiles)
    }

    /// The language a user's pages and feed entries are written in: their profile's own
    /// `language`, else the site's (as for a user without a profile). The one place that
    /// decides it.
    func language(of card: UserCard?) -> LanguageTag {
        card?.language ?? config.language
    }

    /// The theme's templates.
    var templates: TemplateLibrary {
        read(.theme)
        return theme.templates
    }

    /// The bytes of a static file of the theme (`static/style.css`).
    func staticFile(_ path: String) throws(Diagnostic) -> [UInt8] {
        read(.staticFile(path))
        guard let file = theme.staticFiles[path] else { throw Diagnostic("the theme has no file \(path)") }
        return try file.read(at: path).get()
    }

    /// The theme's preview image, for pages without one of their own (`InputKey.staticFile`).
    var themePreview: PreviewImage? {
        read(.staticFile(PreviewImage.themePath))
        return theme.previewImageSize.map { PreviewImage(path: PreviewImage.themePath, width: $0.width, height: $0.height, alt: config.title) }
    }

    /// The bytes of a file of the root static folder, by its path in the output (`robots.txt`).
    func rootFile(_ path: String) throws(Diagnostic) -> [UInt8] {
        read(.rootFile(path))
        return try rootFolder.contents(of: path)
    }

    /// The free pages' titles and addresses, for every page's navigation.
    var navigation: JSONValue {
        read(.pageList)
        return pageLinks
    }

    /// The free pages' names, in order.
    var pageNames: [String] {
        read(.pageList)
        return content.pages.map(\.name)
    }

    func page(named name: String) -> Page? {
        read(.page(name))
        return content.pages.first { $0.name == name }
    }

    // MARK: - Users

    /// Every user with a profile, by handle (which pages exist, not what they say).
    var handles: [String] {
        read(.siteShape)
        return content.profiles.map(\.handle)
    }

    /// Handles newest registration first (`InputKey.userOrder`).
    var newestUsers: [String] {
        read(.userOrder)
        return graph.newestFirst
    }

    /// When the store says the user registered, and in which order (`InputKey.registration`).
    func registration(of handle: String) -> SocialGraph.Registration? {
        read(.registration(handle))
        return graph.registration(of: handle)
    }

    /// The latest time any user registered (`InputKey.userOrder`).
    var newestRegistration: Date? {
        read(.userOrder)
        return graph.newestRegistration
    }

    /// Everything a profile says, for the user's own pages.
    func profile(_ handle: String) -> Profile? {
        read(.profile(handle))
        return published.profile(handle)
    }

    /// The profile, for its contact card (`InputKey.contactCard`), which must show none of
    /// its items.
    func contactProfile(_ handle: String) -> Profile? {
        read(.contactCard(handle))
        return published.profile(handle)
    }

    /// The profile's items shown at the build date.
    func shownItems(of profile: Profile) -> [ProfileItem] {
        read(.profile(profile.handle))
        return profile.items.filter { $0.isShown(at: buildDate) }
    }

    /// The profile's header image.
    func header(of profile: Profile) -> PublishedImage? {
        image(profile.header, of: profile)
    }

    /// An image `profile` names (relative to `content/users/`): its header, a link's or an item's icon.
    func image(_ path: String?, of profile: Profile) -> PublishedImage? {
        read(.profile(profile.handle))
        return path.flatMap { images[ContentPath.userFile($0)] }
    }

    /// A profile's share card (`InputKey.profile`: it shows the name, bio, icon and header).
    func shareCard(ofProfile handle: String) -> PreviewImage? {
        read(.profile(handle))
        return shareCards.profiles[handle].map { Self.preview($0) }
    }

    /// A post's share card: the photo and caption (`InputKey.post`), the owner's name and icon
    /// (`InputKey.card`). Its alt text starts with the photo's own.
    func shareCard(of post: Post) -> PreviewImage? {
        read(.post(post.id))
        read(.card(post.handle))
        return shareCards.posts[post.id].map { Self.preview($0, photoAlt: post.alt) }
    }

    /// A card as a link preview; its alt text says what it shows.
    private static func preview(_ card: PublishedCards.Card, photoAlt: String? = nil) -> PreviewImage {
        let shown = card.shown
        // The text of a meta attribute, where only characters can isolate each value.
        let isolated = BidiIsolation.isolated
        let owner = "\(isolated(shown.layout == .profile ? shown.title : shown.name)) (@\(shown.handle))"
        let parts = shown.layout == .profile ? [owner, isolated(shown.text)] : [isolated(photoAlt ?? ""), isolated(shown.title), owner]
        let alt = parts.filter { !$0.isEmpty }.joined(separator: " · ")
        return PreviewImage(path: card.path, width: ShareCardMaker.width, height: ShareCardMaker.height, alt: alt)
    }

    /// How other pages show a user (`InputKey.card`).
    func card(_ handle: String) -> UserCard? {
        read(.card(handle))
        return published.profile(handle).map { UserCard($0, images: images) }
    }

    /// Every old handle whose addresses redirect, with the handle they lead to (`InputKey.redirects`).
    var redirects: [String: String] {
        read(.redirects)
        return renamed
    }

    func followers(of handle: String) -> [String] {
        read(.followers(handle))
        return graph.followers(of: handle)
    }

    func following(of handle: String) -> [String] {
        read(.following(handle))
        return graph.following(of: handle)
    }

    // MARK: - Posts

    /// Every published post, newest first (`InputKey.anyPost`).
    var newestPosts: [Post] {
        read(.anyPost)
        return postIndex.newestFirst
    }

    /// A user's published posts, newest first.
    func posts(of handle: String) -> [Post] {
        read(.postsOf(handle))
        return postIndex.posts(of: handle)
    }

    func post(_ id: String) -> Post? {
        read(.post(id))
        return postIndex.byID[id]
    }

    /// The post's photo, as published.
    func photo(of post: Post) -> PublishedImage? {
        read(.post(post.id))
        return images[post.photoFile]
    }

    /// Who likes the post, sorted (`InputKey.postStats` of its owner).
    func likers(of post: Post) -> [String] {
        read(.postStats(post.handle))
        return graph.likers(of: post.id)
    }

    /// Page `number` (1-based) of `handle`'s timeline: whose posts it shows, and those posts.
    func timelinePage(of handle: String, number: Int, size: Int) -> [Post] {
        read(.timeline(handle))
        for owner in graph.timelineOwners(of: handle) { read(.postsOf(owner)) }
        return postIndex.timelinePage(of: handle, graph: graph, number: number, size: size)
    }

    // MARK: - Shared parts of views

    /// The address of a page of `kind`, or null when the site does not publish that kind (so
    /// templates leave the link out).
    func link(_ kind: SiteConfig.PageKind, _ path: String) -> JSONValue {
        config.publishes(kind) ? .string(address.path(path)) : .null
    }

    /// How search engines are to treat a page.
    enum Indexing {
        /// Indexed, at its own URL (the canonical link and `og:url`).
        case indexed
        /// At its own URL but kept out of search results (`page.noindex`): lists and timelines
        /// only repeat what profiles and posts show.
        case noindex
        /// The not-found page, served at any missing address: no URL of its own (`page.url` null).
        case notFound
    }

    /// The view every template receives, with `fields` added for the page at hand. `title` is
    /// the `<title>` (and `og:title`, `twitter:title`), each value in it isolated
    /// (`IsolatingText`) since no markup can be there. `image` is
    /// the page's link preview (the theme's when nil); `meta` adds to `page` what only some
    /// pages carry (`username`, `publishedTime`, `fediverseCreator`, `jsonLD`).
    func view(
        title: IsolatingText, heading: String, description: String?, path: String, type: String, image: PreviewImage?,
        indexing: Indexing = .indexed, labels pageLabels: Labels? = nil, meta: [String: JSONValue] = [:], fields: [String: JSONValue]
    ) -> JSONValue {
        // A user's own pages are in their language (`language(of:)`); the others in the site's.
        let labels = pageLabels ?? labels
        let preview = image ?? themePreview
        var page: [String: JSONValue] = [
            "title": .string(title.description),
            "heading": .string(heading),
            "description": JSONValue(description),
            "url": indexing == .notFound ? .null : .string(address.absolute(path)),
            "path": .string(address.path(path)),
            "type": .string(type),
            "image": preview?.view(address) ?? .null,
            "twitterCard": .string((preview?.card ?? .summary).rawValue),
            "noindex": .bool(indexing == .noindex),
            "language": .string(labels.language.text),
            "locale": JSONValue(labels.openGraphLocale),
            "direction": JSONValue(labels.direction),
        ]
        page.merge(meta) { _, own in own }
        var view: [String: JSONValue] = [
            "site": site,
            "labels": labels.view,
            "pages": navigation,
            "page": .object(page),
        ]
        view.merge(fields) { _, own in own }
        return .object(view)
    }

    /// The view `key` names, made by `make` the first time a page of this model asks for it and
    /// kept: a post's card shows on its owner's profile, the home page and every follower's
    /// timeline, and making it (URLs, srcsets, date and like texts) costs more than rendering
    /// it. What `make` read is recorded with the view in a debug build, and replayed for each
    /// page that shows it, so each page's reads are still checked against its plan; and
    /// whenever `SharedViews.keepsReads`, so that the next model can take it over
    /// (`takeOver`).
    func shared<View: Sendable>(_ key: SharedViews.Key, _ make: (PageViews) -> View) -> View {
        let withReads = log != nil || sharedViews.keepsReads
        if let kept = sharedViews.kept(key, withReads: withReads), let view = kept.view as? View {
            for read in kept.reads ?? [] { log?.record(read) }
            return view
        }
        let reads = withReads ? ReadLog() : nil
        let view = make(reads.map(recording) ?? self)
        let recorded = reads.map { Array($0.recorded) }
        for read in recorded ?? [] { log?.record(read) }
        sharedViews.keep(key, view: view, reads: recorded)
        return view
    }

    /// Lets go of the views kept by `shared` (`tomo serve` keeps a model between rebuilds).
    func forgetSharedViews() {
        sharedViews.forget()
    }

    /// From now on, records what each view made by `shared` reads, and takes over the post
    /// cards and search entries `previous` (the last model's views) made that read nothing in
    /// `changed`: this model shows them alike. For `tomo serve`, whose rebuild after a small
    /// edit makes the same timelines again, each showing a score of other users' cards, and
    /// the search index of every user.
    func takeOver(from previous: PageViews, unless changed: Set<InputKey>) {
        sharedViews.keepReads()
        sharedViews.takeOver(from: previous.sharedViews, unless: changed)
    }

    /// `handle`'s entry in the search index; nil without a profile.
    func searchEntry(_ handle: String) -> [UInt8]? {
        shared(.searchEntry(handle)) { views in
            views.card(handle).map { SiteFiles.searchEntry($0, language: views.language(of: $0), address: views.address) }
        }
    }

    /// A user in a list; only the first card's icon loads at once. The icon is put in for each
    /// page, not kept with the card (see `cardImage`).
    func cardView(_ card: UserCard, position: Int) -> JSONValue {
        let kept = shared(.userCard(card.handle)) { views in views.makeCardView(card) }
        guard case .object(var fields) = kept else { return kept }
        fields["icon"] = cardImage(card.icon, position: position)
        return .object(fields)
    }

    /// The card as lists show it, without its icon.
    private func makeCardView(_ card: UserCard) -> JSONValue {
        [
            "handle": .string(card.handle),
            "name": .string(card.name),
            "initial": .string(Self.initial(of: card.name)),
            "url": .string(address.path(card.handle + "/")),
            "summary": .string(card.summary ?? ""),
            // Their name and bio are in their language, on any page (a screen reader's voice,
            // the glyphs of Han characters).
            "language": .string(language(of: card).text),
        ]
    }

    /// `image` on the card at `position` of a page: loading at once on the first card and as it
    /// scrolls into view on the others. Put into a kept card (see `shared`) for each page that
    /// shows it, not kept with it: its URLs and srcsets are half a card's size, and a first
    /// build would keep them for each of 100,000 posts until the last timeline is made.
    func cardImage(_ image: PublishedImage?, position: Int) -> JSONValue {
        image?.view(loading: position == 0 ? .eager : .lazy, at: address) ?? .null
    }

    /// The cards of `handles` (those with a profile), in order.
    func cardViews(_ handles: [String], firstPosition: Int = 0) -> [JSONValue] {
        handles.compactMap(card).enumerated().map { cardView($1, position: $0 + firstPosition) }
    }

    /// The first character of a name, for a placeholder icon.
    static func initial(of name: String) -> String {
        name.first.map { String($0).uppercased() } ?? "?"
    }
}

/// The views of one model that many of its pages show alike, each made once (`PageViews.shared`).
final class SharedViews: Sendable {
    enum Key: Hashable, Sendable {
        /// A user's card in a list, without its icon (see `PageViews.cardImage`).
        case userCard(String)
        /// A post's card in a grid or timeline, by post ID, in the language of the page that
        /// shows it, without its photo.
        case postCard(String, language: LanguageTag)
        /// A user's entry in `search.json` (`SiteFiles.searchEntry`), as bytes.
        case searchEntry(String)

        /// Whether the next model may take the view over (`takeOver`): a list's user card is
        /// cheap to make again.
        var isTakenOver: Bool {
            if case .userCard = self { return false }
            return true
        }
    }

    /// A class: the tables hand it out and go through it by reference (a value of an
    /// existential and an array was copied for each of 10,000 views at each take-over).
    final class Kept: Sendable {
        /// A view (`JSONValue`) or what one is made from (`PostCard`).
        let view: any Sendable
        /// The inputs making it read, when it was made with a read log (see `PageViews.shared`).
        let reads: [InputKey]?

        init(view: any Sendable, reads: [InputKey]?) {
            self.view = view
            self.reads = reads
        }
    }

    private let views = Mutex<[Key: Kept]>([:])
    /// The search entries, apart from the other views: one per user, each read by the one file
    /// `search.json`, which a display-name edit makes again; they are always taken over, however
    /// many users there are (`takenOverLimit` counts the other views).
    private let searchEntries = Mutex<[Key: Kept]>([:])
    private let readsKept = Atomic<Bool>(false)

    /// Runs `body` on the table that keeps `key`'s view.
    private func withTable<T>(of key: Key, _ body: (inout [Key: Kept]) -> T) -> T {
        if case .searchEntry = key { return searchEntries.withLock { body(&$0) } }
        return views.withLock { body(&$0) }
    }

    /// Whether views are made with what they read in any build (see `PageViews.shared`).
    var keepsReads: Bool { readsKept.load(ordering: .relaxed) }

    func keepReads() {
        readsKept.store(true, ordering: .relaxed)
    }

    /// At most this many post cards are taken over from one model to the next: the cards of
    /// the timelines a few edits made again, not every post's.
    static let takenOverLimit = 20_000

    /// Takes the post cards and search entries of `previous` that read nothing in `changed`
    /// (those made without their reads are left); no post card when `previous` keeps more than
    /// `takenOverLimit` views. They are moved, not copied (copying 10,000 search entries cost
    /// as much as making them): `previous` is left without its views, which only costs it time
    /// should it render again (after a rebuild that failed).
    func takeOver(from previous: SharedViews, unless changed: Set<InputKey>) {
        // An edit changes a few keys, which are compared one by one: hashing each read of
        // 10,000 views was about a third of the take-over.
        let changedKeys = Array(changed)
        let isChanged: (InputKey) -> Bool = changedKeys.count <= 8 ? { changedKeys.contains($0) } : { changed.contains($0) }
        /// The views of `table` taken over that read nothing in `changed`; `table` is emptied.
        func take(_ table: inout [Key: Kept]) -> [Key: Kept] {
            var taken: [Key: Kept] = [:]
            swap(&taken, &table)
            let left = taken.compactMap { key, kept -> Key? in
                guard key.isTakenOver, let reads = kept.reads, !reads.contains(where: isChanged) else { return key }
                return nil
            }
            for key in left { taken.removeValue(forKey: key) }
            return taken
        }
        /// `taken` put into `table`, the views already there kept.
        func put(_ taken: [Key: Kept], into table: inout [Key: Kept]) {
            if table.isEmpty { table = taken } else { table.merge(taken) { own, _ in own } }
        }
        let cards = previous.views.withLock { $0.count > Self.takenOverLimit ? [:] : take(&$0) }
        views.withLock { put(cards, into: &$0) }
        let entries = previous.searchEntries.withLock { take(&$0) }
        searchEntries.withLock { put(entries, into: &$0) }
    }

    /// The view kept for `key`; nil when there is none, or when `withReads` asks for what it
    /// read and that was not recorded.
    func kept(_ key: Key, withReads: Bool) -> Kept? {
        withTable(of: key) { views in
            guard let kept = views[key], !withReads || kept.reads != nil else { return nil }
            return kept
        }
    }

    func keep(_ key: Key, view: any Sendable, reads: [InputKey]?) {
        withTable(of: key) { $0[key] = Kept(view: view, reads: reads) }
    }

    func forget() {
        views.withLock { $0 = [:] }
        searchEntries.withLock { $0 = [:] }
    }
}

/// What other pages show of a user (`InputKey.card`): a name, an icon, the bio's summary and
/// the fediverse account posts name as their creator.
/// A profile edit that leaves these alone touches only the user's own pages.
struct UserCard: Sendable {
    var handle: String
    var name: String
    /// The bio's summary (`Profile.Bio.summary`); nil without a bio.
    var summary: String?
    var icon: PublishedImage?
    /// `@user@instance` from the profile's Mastodon link, for `fediverse:creator` on the
    /// user's posts; nil without one in that form.
    var fediverseCreator: String? { FediverseAccount.handle(of: links) }
    /// Kept for `fediverseCreator`, found only where a page asks: telling a link's service is
    /// most of a card's cost, and the search index and the lists make 10,000 cards at a time.
    private var links: [ProfileLink]
    /// The profile's own language, nil for the site's: ask `PageViews.language(of:)` for the
    /// one its pages use.
    var language: LanguageTag?

    init(_ profile: Profile, images: [String: PublishedImage]) {
        handle = profile.handle
        name = profile.name
        summary = profile.bioSummary
        icon = profile.icon.flatMap { images[ContentPath.userFile($0)] }
        links = profile.links
        language = profile.language
    }
}
