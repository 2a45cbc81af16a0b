import TomoContent
import TomoCore

/// The addresses a renamed user left (`PublishedSite.redirects`: old handle → the handle they
/// have now). At each old path of a page the user has now (profile, posts, followers,
/// following, the timeline's pages) a page that sends readers on: a meta refresh, a canonical
/// link, noindex and a link to follow by hand. At the old feed's path the user's feed itself:
/// feed readers do not follow an HTML page, and its entries keep their ids (`FeedPages`), so
/// nothing shows twice. And `/_redirects`, the same moves as permanent redirects for hosts
/// that read that file (Netlify, Cloudflare Pages). The sitemap lists none of these. Plan and
/// view side by side.
enum RedirectPages {
    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        let redirects = model.published.redirects
        // With the site's own rules, `_redirects` is made here even while no rename is left:
        // published alone, the root file would not read `.redirects`, and the last rename's
        // end would leave its lines in the file.
        let ownRules = model.published.rootFolder.files[rulesPath] != nil
        guard !redirects.isEmpty || ownRules else { return }
        let config = model.content.config
        for (old, new) in redirects.sorted(by: { $0.key < $1.key }) {
            // The addresses of the user's pages, as the part after the handle.
            var places = [""] + model.posts.posts(of: new).map { "posts/\($0.slug)/" }
            for kind in [UserListPages.Kind.followers, .following] where config.publishes(kind.pageKind) {
                places.append(kind.rawValue + "/")
            }
            if config.publishes(.timeline) {
                let pages = model.posts.timelinePageOwners(of: new, graph: model.graph, size: config.pageSize).count
                for number in stride(from: 1, through: pages, by: 1) {
                    places.append(String(TimelinePages.address(new, number).dropFirst(new.count + 1)))
                }
            }
            for place in places {
                files.append(PlannedFile(path: "\(old)/\(place)index.html", inputs: [.site, .theme, .redirects], source: .page(template: "redirect") { views in
                    views.redirects[old].map { views.redirectPage(to: "\($0)/\(place)") } ?? .null
                }))
            }
            if config.publishes(.feed) {
                files.append(FeedPages.userFeed(of: new, at: "\(old)/feed.xml", in: model, alsoReading: [.redirects]))
            }
        }
        // A site's own static/_redirects comes first: hosts apply the first rule that matches.
        // Read even while there is none, so that its removal remakes the file.
        files.append(PlannedFile(path: rulesPath, inputs: [.site, .redirects, .rootFile(rulesPath)], source: .bytes { views throws(Diagnostic) in
            var own = ownRules ? try views.rootFile(rulesPath) : []
            let moves = rules(views.redirects, address: views.address)
            // Without a rename the site's own file is published as it is.
            guard !moves.isEmpty else { return own }
            if let last = own.last, last != UInt8(ascii: "\n") { own.append(UInt8(ascii: "\n")) }
            return own + Array(moves.map { $0 + "\n" }.joined().utf8)
        }))
    }

    /// Where hosts that read redirect rules look for them.
    static let rulesPath = "_redirects"

    /// The `_redirects` lines for `redirects` (old handle → new): each old handle's bare address,
    /// then everything under it, moved for good (301). Exact lines come before those with a
    /// `*`, as Cloudflare Pages asks. The lines alone, so a site's own can be put beside them.
    static func rules(_ redirects: [String: String], address: SiteAddress) -> [String] {
        let moves = redirects.sorted { $0.key < $1.key }
        return moves.map { "\(address.path($0.key)) \(address.path($0.value + "/")) 301" }
            + moves.map { "\(address.path($0.key + "/*")) \(address.path($0.value + "/")):splat 301" }
    }
}

extension PageViews {
    /// A page at an old address that sends readers to `path` (relative to the site).
    func redirectPage(to path: String) -> JSONValue {
        [
            "site": site,
            "labels": labels.view,
            "redirect": ["path": .string(address.path(path)), "url": .string(address.absolute(path))],
        ]
    }
}
