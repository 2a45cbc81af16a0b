/// What an output file is made from, so a rebuild after an edit can redo only the files that
/// read what changed. `InputFingerprints` gives each key a number; `PageViews` records which
/// keys a page reads.
enum InputKey: Sendable, Hashable {
    /// `content/site.yaml`, every key of it (`params:` too), and the base URL.
    case site
    /// Any template or label of the theme.
    case theme
    /// One static file of the theme (`static/style.css`): only that file reads it.
    case staticFile(String)
    /// One file of the root static folder, by its path in the output (`robots.txt` for
    /// `static/robots.txt`): only that file reads it.
    case rootFile(String)
    /// The list of free pages: names and titles (every page's navigation shows it).
    case pageList
    case page(String)
    /// Everything a profile file says and the images it shows, and which of its items are
    /// shown at the build date (its own page and feed read this).
    case profile(String)
    /// What the user's contact card shows: the name, bio, links, the e-mail address shown and
    /// the icon; no item, so an item's edit or its `from`/`until` passing leaves the card alone.
    case contactCard(String)
    /// How a user appears on other pages (`UserCard`: name, icon, the bio's first line).
    case card(String)
    /// Any user's card at all (the home page, the site feed, the search index).
    case anyCard
    /// One published post: its file and its photo.
    case post(String)
    /// The published posts of one user and what each says (their profile grid, feed, and the
    /// timelines that show them).
    case postsOf(String)
    /// Any published post at all, and their order (the home page, the site feed, the sitemap).
    case anyPost
    // What the store says, split so that one follow or like touches only the pages showing it:
    /// Who follows the user (their profile's count, their followers page).
    case followers(String)
    /// Whom the user follows (the count, the following page).
    case following(String)
    /// Whose posts the user's timeline shows (follows less blocks).
    case timeline(String)
    /// The likes on the user's posts.
    case postStats(String)
    /// `postStats` of anyone (the home page's recent posts).
    case anyPostStats
    /// When the user registered, as the store says (their feed, while it has no entry; without
    /// a registration that feed reads the site's dates, which its plan names).
    case registration(String)
    /// The order users registered in, the latest registration time and every registration (the
    /// home page, the search index, the site feed: its entries' ids and, while it has no entry,
    /// its date; and so the empty feeds of users without a registration).
    case userOrder
    /// Which old handles redirect, and to whom (the store's renames, less handles in use).
    case redirects
    /// Which profiles, posts and pages exist (not what they say).
    case siteShape

    /// Whether a change of `key` always changes this key's fingerprint too, so that a file
    /// declaring this key is remade whenever `key` changed (`InputFingerprints` makes the
    /// wider keys from the narrower ones).
    func covers(_ key: InputKey) -> Bool {
        if self == key { return true }
        switch (self, key) {
        case (.anyCard, .card): return true
        case (.profile(let handle), .card(let other)), (.profile(let handle), .contactCard(let other)), (.contactCard(let handle), .card(let other)): return handle == other
        case (.anyPost, .post), (.anyPost, .postsOf): return true
        case (.postsOf(let handle), .post(let id)): return id.hasPrefix(handle + "/")
        case (.anyPostStats, .postStats): return true
        case (.userOrder, .registration): return true
        default: return false
        }
    }

    /// Whether the plan (which files exist, and what each reads) depends on this key: while
    /// only other keys change, `tomo serve` keeps its plan.
    var shapesPlan: Bool {
        switch self {
        case .profile, .contactCard, .card, .anyCard, .page, .theme, .staticFile, .rootFile, .userOrder: false
        case .site, .pageList, .post, .postsOf, .anyPost, .followers, .following, .timeline, .postStats, .anyPostStats, .registration, .redirects, .siteShape: true
        }
    }
}
