import TomoContent
import TomoCore
import TomoImages

/// The site-wide files: the home page, the 404 page, the free pages (`content/pages`), the
/// sitemap, `robots.txt`, the search index, the theme's static files and the thumbnails. Plan and view side
/// by side.
enum SitePages {
    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        files.append(PlannedFile(path: "index.html", inputs: SitePlan.everyPage + [.anyCard, .anyPost, .anyPostStats, .userOrder], source: .page(template: "home") { $0.home() }))
        files.append(PlannedFile(path: "404.html", inputs: SitePlan.everyPage, source: .page(template: "404") { $0.notFound() }))
        for page in model.content.pages {
            let name = page.name
            files.append(PlannedFile(path: "\(name)/index.html", inputs: SitePlan.everyPage + [.page(name)], source: .page(template: "page") { views in
                views.page(named: name).map(views.freePage) ?? .null
            }))
        }
        Sitemap.plan(model, into: &files)
        // A site's own robots.txt (in the root static folder) replaces the default one. The
        // default names the site's own as an input: when that goes, the path is made again.
        if model.published.rootFolder.files["robots.txt"] == nil {
            files.append(PlannedFile(path: "robots.txt", inputs: [.site, .rootFile("robots.txt")], source: .bytes { views in
                SiteFiles.robots(address: views.address)
            }))
        }
        files.append(PlannedFile(path: "search.json", inputs: [.site, .anyCard, .userOrder], source: .bytes { views in
            SiteFiles.searchIndex(views.newestUsers.compactMap(views.searchEntry))
        }))
        for path in model.theme.staticFiles.keys.sorted() {
            files.append(PlannedFile(path: path, inputs: [.staticFile(path)], source: .bytes { views throws(Diagnostic) in
                try views.staticFile(path)
            }))
        }
        for (path, file) in model.images.publishedFiles(beside: model.cards.files) {
            // Named by their content: a path seen before holds the same bytes.
            files.append(PlannedFile(path: path, inputLists: [], source: .file(file)))
        }
    }
}

extension PageViews {
    /// The home page: the `homeUsers` newest users and the `pageSize` newest posts.
    func home() -> JSONValue {
        let config = config
        let users = newestUsers.lazy.compactMap(card).prefix(config.homeUsers)
        let recent = newestPosts
        return view(
            title: "\(config.title)",
            heading: config.title,
            description: config.description,
            path: "",
            type: "website",
            image: nil,
            fields: [
                "users": .array(users.enumerated().map { cardView($1, position: $0) }),
                "recentPosts": .array(recent.prefix(config.pageSize).enumerated().map { postCard($1, position: $0 + 1, labels: labels) }),
                "hasRecentPosts": .bool(!recent.isEmpty),
            ]
        )
    }

    func freePage(_ page: Page) -> JSONValue {
        view(
            title: "\(page.title) · \(config.title)",
            heading: page.title,
            description: page.description,
            path: page.name + "/",
            type: "article",
            image: nil,
            fields: ["contentHTML": .string(MarkdownLinks.underRoot(page.html, address: address))]
        )
    }

    func notFound() -> JSONValue {
        let heading = labels.text("notFoundTitle")
        return view(
            title: "\(heading) · \(config.title)",
            heading: heading,
            description: nil,
            path: "404.html",
            type: "website",
            image: nil,
            indexing: .notFound,
            fields: [:]
        )
    }
}
