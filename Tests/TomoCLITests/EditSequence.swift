import Foundation
import TomoCore
import TomoTestSupport

/// A small real site and a seeded generator of the edits people, scripts and the `tomo`
/// commands make to it, for the change oracle (`ChangeOracleTests`): profiles (name, bio, items,
/// items with `from`/`until` days before or after today, icon, header, links of their own, link and item icons), posts (`tomo post add`,
/// written by hand, deleted, moved to another user, dated, made private, captioned, photo
/// replaced), hide and unhide, follows, blocks and likes and their undo, `tomo user add`, `rm`
/// and `rename`, free pages, every key of site.yaml (`theme:` too, and a profile's), template, label and static file overrides,
/// files of the root static folder (dot files, nested and binary ones, the site's own robots.txt and
/// files that collide with a generated one), symbolic links (a post folder or profile moved aside and linked back, a post folder linked
/// from outside the site), folder moves, and edits that must fail the build (a YAML syntax
/// error, an unknown key, a missing photo, a broken template, posts without a profile, a page
/// named like a user).
///
/// Each step says in words what it did (`tomo follow bob alice → exit 0`, `wrote
/// content/users/alice.yaml: name "Zoë"`), so a failure names the step sequence. Whatever a step
/// touches is saved first: when the build fails after it, the next step puts it back, so a
/// sequence goes on from a good site after showing what the failure does.
struct EditSequence {
    let site: URL
    /// A folder beside the site, where a link leading out of the site points.
    let outside: URL
    var random: SplitMix64
    private(set) var state = SiteState()
    /// What the last step touched, as it was before; put back after a failed build.
    private var undo: Undo?
    /// Grows with every written value, so that an edit always changes the file.
    private var version = 0

    init(site: URL, outside: URL, seed: UInt64) {
        self.site = site
        self.outside = outside
        random = SplitMix64(seed: seed)
    }

    // MARK: Values

    /// The repository's demo photos: small real JPEGs.
    static let demo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let photos = [
        "content/posts/alice/film-morning.jpg", "content/posts/alice/shibuya-rain.jpg", "content/posts/alice/tokyo-bay-sunset.jpg",
        "content/posts/hana/sakura-sketch.jpg", "content/posts/hana/watercolor-cat.jpg", "content/posts/kenji/tonkotsu.jpg",
        "content/posts/maria/alfama-tram.jpg", "content/users/alice/icon.jpg", "content/users/kenji/header.jpg",
    ].map { demo.appendingPathComponent($0) }
    /// The default theme's own files, which overrides start from.
    static let theme = demo.appendingPathComponent("templates")
    static let templates = [
        "profile.mustache", "post.mustache", "home.mustache", "item.mustache", "user-card.mustache", "post-card.mustache",
        "layout.mustache", "timeline.mustache", "user-list.mustache", "page.mustache", "404.mustache", "feed.mustache",
    ]

    static let names = ["Alice Example", "Bob", "Carol K.", "ダイ", "Erin O'Neil", "Zoë", "Frank & Co", "Mr. <Angle>"]
    static let bios = [
        "Photographer in **Tokyo**.\nFilm, mostly.", "Just one line.", "東京の写真家。", "Prints at [the shop](https://shop.example/x).",
        "A first line\n\nA second paragraph.",
    ]
    static let itemTexts = ["Hello", "Portfolio", "Summer show", "セール", "Prints", "Newsletter"]
    static let itemURLs: [String?] = [nil, "https://example.com/a", "https://example.com/b?x=1", "mailto:shop@example.com"]
    static let colors: [String?] = [nil, "orange", "blue", "#336699", "lightGray"]
    /// Built-in languages, one with a region the labels fall back from, one only a site's
    /// label file gives (`pl`, with CLDR's few and many).
    static let languages = ["en", "ja", "fr", "zh-Hans-TW", "pl"]
    static let labelFiles = ["en", "ja", "fr", "zh-Hans", "zh-Hans-TW", "pl"]
    static let links = [("website", "https://site.example/"), ("github", "https://github.com/someone"), ("mastodon", "https://mastodon.social/@someone"),
                        ("discord", "https://discord.gg/someone"), ("twitch", "https://twitch.tv/someone")]
    static let linkLabels = ["My shop", "Zine & prints", "ブログ", "<Newsletter>"]
    /// Post dates: equal instants written differently, the same date twice, the far past, the future.
    static let dates = [
        "2024-03-10T09:00:00+09:00", "2025-07-01", "2026-05-01T18:30:00+09:00", "2026-05-01T09:30:00Z", "2026-11-20T08:00:00-05:00",
        "2027-01-15", "2001-01-01", "2026-05-01T18:30:00+09:00", "2026-02-14 06:10",
    ]
    static let captions = ["", "Golden hour over **Tokyo Bay**.", "雨の渋谷。", "Line one\nLine two", "A [link](https://example.com/)."]
    static let alts: [String?] = [nil, "A sunset", "Rain at night", "猫"]
    static let slugs = ["sunset", "rain", "tram", "ramen", "cat", "tiles", "morning", "night-walk", "p2026"]
    static let newHandles = ["frank", "gina", "hiro", "ivan_2", "jo"]
    static let pageNames = ["about", "colophon", "contact", "faq", "privacy"]

    // MARK: The starting site

    /// The address the sequence started with (the preview's, when one runs).
    private(set) var baseURL = ""

    /// Writes the starting site: five users (one in JSON, one without an icon), seven posts (one
    /// for followers, one private), two pages, follows, likes and a block, registered with the
    /// real commands; `baseURL` is site.yaml's.
    mutating func start(baseURL: String) throws {
        self.baseURL = baseURL
        state.config.baseURL = baseURL
        try write("content/site.yaml", state.config.text)
        let soon = Self.day(3)
        let past = Self.day(-3)
        state.profiles = [
            "alice": Profile(name: "Alice", bio: Self.bios[0], icon: "alice/icon.jpg", header: "alice/header.jpg",
                             items: [Item(text: "Hello"), Item(text: "Shop", url: "https://alice.example/shop", color: "orange"),
                                     Item(text: "Sale from soon", from: soon), Item(text: "Old news", until: past), Item(text: "Secret", hidden: true)],
                             itemColor: "blue", links: [Self.links[0], Self.links[2], Self.links[3]],
                             customLinks: [CustomLink(label: "Shop & prints", url: "https://alice.example/prints", icon: "alice/link-shop.jpg")],
                             email: "alice@private.example"),
            "bob": Profile(name: "Bob", bio: "Bob writes.", icon: "bob/icon.jpg", items: [Item(text: "Running now", from: past, until: soon)]),
            "carol": Profile(name: "Carol", bio: "From JSON.", icon: "carol/icon.jpg", links: [Self.links[1]], json: true),
            "dave": Profile(name: "Dave"),
            "erin": Profile(name: "Erin", header: "erin/header.jpg", items: [Item(text: "Hi", color: "#336699")], email: "erin@example.com", showEmail: true),
        ]
        for (handle, profile) in state.profiles {
            try write("content/users/\(handle).\(profile.fileName)", profile.text)
            for image in [profile.icon, profile.header].compactMap({ $0 }) + profile.customLinks.compactMap(\.icon) {
                try copy(random.pick(Self.photos), to: "content/users/\(image)")
            }
        }
        let posts: [(String, String, String)] = [
            ("alice/sunset", "public", Self.dates[2]), ("alice/morning", "public", Self.dates[1]), ("alice/diary", "followers", Self.dates[0]),
            ("bob/tram", "public", Self.dates[3]), ("bob/tiles", "public", Self.dates[4]), ("carol/ramen", "public", Self.dates[8]),
            ("dave/cat", "private", Self.dates[5]),
        ]
        for (index, (id, visibility, date)) in posts.enumerated() {
            let post = Post(photo: "\(id.split(separator: "/")[1]).jpg", date: date, alt: Self.alts[index % Self.alts.count],
                            visibility: visibility, caption: Self.captions[index % Self.captions.count])
            state.posts[id] = post
            try writePost(id)
            try copy(Self.photos[index], to: "content/posts/\(folder(of: id))/\(post.photo)")
        }
        state.pages = [
            "about": Page(title: "About", description: "What this is.", body: "About *this* site."),
            "colophon": Page(title: "Colophon", body: "Made with tomo."),
        ]
        for name in state.pages.keys { try write("content/pages/\(name).md", state.pages[name]!.text) }
        state.registered = ["alice", "bob", "carol", "dave", "erin"]
        let commands = state.registered.map { "user add \($0)" } + [
            "follow alice bob", "follow bob alice", "follow carol alice", "follow dave carol", "follow erin alice",
            "like bob alice/sunset", "like carol alice/sunset", "like alice bob/tram", "block dave erin",
        ]
        let script = site.deletingLastPathComponent().appendingPathComponent("graph.txt")
        try Data((commands.joined(separator: "\n") + "\n").utf8).write(to: script)
        let batch = runTomo(["batch", script.path, "--site", site.path])
        guard batch.status == 0 else { throw HarnessError("the starting site's store: \(batch.error)") }
    }

    // MARK: Steps

    /// Applies one edit and says what it did. After a build that failed, the step puts back
    /// what the previous one touched instead.
    mutating func step(afterFailedBuild failed: Bool) throws -> String {
        if failed, let undo {
            self.undo = nil
            for (path, saved) in undo.saved { try saved.restore(at: url(path)) }
            state = undo.state
            return "undo the previous step: put back \(undo.saved.map(\.path).joined(separator: ", "))"
        }
        undo = nil
        while true {
            let (_, edit) = Self.kinds[Self.pickWeighted(&random)]
            if let description = try edit(&self) { return description }
        }
    }

    typealias Edit = @Sendable (inout EditSequence) throws -> String?

    /// Every kind of edit and how often it comes (an edit that cannot apply to the site as it is
    /// says nil, and another is drawn).
    static let kinds: [(weight: Int, edit: Edit)] = [
        (6, { try $0.editProfile() }),
        (3, { try $0.timedItem() }),
        (3, { try $0.changeImage() }),
        (3, { try $0.changeLinkOrItemIcon() }),
        (4, { try $0.addPostWithCommand() }),
        (2, { try $0.addPostByHand() }),
        (3, { try $0.deletePost() }),
        (3, { try $0.movePost() }),
        (5, { try $0.editPost() }),
        (2, { try $0.replacePhoto() }),
        (3, { try $0.hideOrUnhide() }),
        (8, { try $0.storeCommand() }),
        (2, { try $0.addUser() }),
        (2, { try $0.removeUser() }),
        (3, { try $0.renameUser() }),
        (3, { try $0.editPage() }),
        (4, { try $0.editSiteConfig() }),
        (3, { try $0.editTemplate() }),
        (2, { try $0.editStaticFile() }),
        (3, { try $0.editRootFile() }),
        (2, { try $0.linkAside() }),
        (1, { try $0.linkFromOutside() }),
        (1, { try $0.unlink() }),
        (2, { try $0.moveFolder() }),
        (4, { try $0.breakBuild() }),
    ]

    static func pickWeighted(_ random: inout SplitMix64) -> Int {
        let total = kinds.reduce(0) { $0 + $1.weight }
        var roll = Int.random(in: 0..<total, using: &random)
        for (index, kind) in kinds.enumerated() {
            if roll < kind.weight { return index }
            roll -= kind.weight
        }
        return kinds.count - 1
    }

    // MARK: Profiles

    mutating func editProfile() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        var profile = state.profiles[handle]!
        let what: String
        switch Int.random(in: 0..<11, using: &random) {
        case 0:
            profile.name = next(random.pick(Self.names))
            what = "name \(profile.name.debugDescription)"
        case 1:
            profile.bio = random.chance(0.2) ? nil : next(random.pick(Self.bios))
            what = "bio \(profile.bio?.debugDescription ?? "removed")"
        case 2:
            let item = Item(text: next(random.pick(Self.itemTexts)), url: random.pick(Self.itemURLs), color: random.pick(Self.colors))
            profile.items.insert(item, at: Int.random(in: 0...profile.items.count, using: &random))
            what = "item \(item.text.debugDescription) added"
        case 3:
            guard !profile.items.isEmpty else { return nil }
            let removed = profile.items.remove(at: Int.random(in: 0..<profile.items.count, using: &random))
            what = "item \(removed.text.debugDescription) removed"
        case 4:
            guard profile.items.count > 1 else { return nil }
            profile.items.shuffle(using: &random)
            what = "items reordered: \(profile.items.map(\.text))"
        case 5:
            guard !profile.items.isEmpty else { return nil }
            let index = Int.random(in: 0..<profile.items.count, using: &random)
            profile.items[index].hidden.toggle()
            what = "item \(profile.items[index].text.debugDescription) hidden: \(profile.items[index].hidden)"
        case 6:
            profile.itemColor = random.pick(Self.colors)
            what = "itemColor \(profile.itemColor ?? "removed")"
        case 8:
            // The profile's own language: its pages' labels, dates and lang, its feed entries.
            profile.language = random.pick([nil] + Self.languages.map(Optional.some))
            what = "language \(profile.language ?? "removed")"
        case 9:
            what = "theme " + editTheme(&profile.theme)
        case 7:
            if !profile.links.isEmpty, random.chance(0.4) {
                profile.links.removeFirst()
                what = "first link removed"
            } else {
                let (service, address) = random.pick(Self.links)
                profile.links.removeAll { $0.service == service }
                profile.links.append((service, address + nextNumber()))
                what = "link \(service) set"
            }
        default:
            profile.showEmail.toggle()
            if profile.email == nil { profile.email = "\(handle)@mail.example" }
            what = "email \(profile.email!) shown: \(profile.showEmail)"
        }
        return try writeProfile(handle, profile, what)
    }

    /// An item shown from or until a day well before or after today, so that every build of
    /// the run sees it the same way whatever the clock says.
    mutating func timedItem() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        var profile = state.profiles[handle]!
        let days = [-40, -3, 3, 40]
        let form = random.chance(0.5) ? { (days: Int) in Self.day(days) } : { (days: Int) in Self.time(days) }
        var item = Item(text: next("Timed"))
        switch Int.random(in: 0..<3, using: &random) {
        case 0: item.from = form(random.pick(days))
        case 1: item.until = form(random.pick(days))
        default:
            let from = random.pick(days)
            item.from = form(from)
            item.until = form(random.pick(days.filter { $0 > from } + [40]))
        }
        if !profile.items.isEmpty, random.chance(0.3) {
            let index = Int.random(in: 0..<profile.items.count, using: &random)
            item.text = profile.items[index].text
            profile.items[index] = item
        } else {
            profile.items.append(item)
        }
        return try writeProfile(handle, profile, "timed item \(item.text.debugDescription) from \(item.from ?? "-") until \(item.until ?? "-")")
    }

    /// A new picture in place of the icon or header, another file named, one added or removed.
    mutating func changeImage() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        var profile = state.profiles[handle]!
        let isIcon = random.chance(0.6)
        let current = isIcon ? profile.icon : profile.header
        let photo = random.pick(Self.photos)
        if let current, random.chance(0.5) {
            try remember("content/users/\(current)")
            try copy(photo, to: "content/users/\(current)")
            return "replaced the picture content/users/\(current) with \(photo.lastPathComponent)"
        }
        var image: String?
        if current == nil || random.chance(0.6) {
            image = "\(handle)/\(isIcon ? "icon" : "header")-\(next("v")).jpg"
            try remember("content/users/\(image!)")
            try copy(photo, to: "content/users/\(image!)")
        }
        if isIcon { profile.icon = image } else { profile.header = image }
        return try writeProfile(handle, profile, "\(isIcon ? "icon" : "header") \(image ?? "removed")")
    }

    /// A link of the profile's own (with or without an icon) added or removed, or an icon of a
    /// link or an item: a new picture in the same file, another file named, one added or removed.
    mutating func changeLinkOrItemIcon() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        var profile = state.profiles[handle]!
        let photo = random.pick(Self.photos)
        let newIcon = { (sequence: inout EditSequence) throws -> String in
            let icon = "\(handle)/link-\(sequence.nextNumber()).jpg"
            try sequence.remember("content/users/\(icon)")
            try sequence.copy(photo, to: "content/users/\(icon)")
            return icon
        }
        let icons = profile.customLinks.compactMap(\.icon) + profile.items.compactMap(\.icon)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            let link = CustomLink(label: next(random.pick(Self.linkLabels)), url: "https://links.example/\(nextNumber())", icon: random.chance(0.7) ? try newIcon(&self) : nil)
            profile.customLinks.insert(link, at: Int.random(in: 0...profile.customLinks.count, using: &random))
            return try writeProfile(handle, profile, "link \(link.label.debugDescription) added with icon \(link.icon ?? "none")")
        case 1:
            guard !profile.customLinks.isEmpty else { return nil }
            let removed = profile.customLinks.remove(at: Int.random(in: 0..<profile.customLinks.count, using: &random))
            return try writeProfile(handle, profile, "link \(removed.label.debugDescription) removed")
        case 2:
            guard !icons.isEmpty else { return nil }
            let icon = random.pick(icons)
            try remember("content/users/\(icon)")
            try copy(photo, to: "content/users/\(icon)")
            return "replaced the link or item icon content/users/\(icon) with \(photo.lastPathComponent)"
        case 3:
            guard !profile.customLinks.isEmpty else { return nil }
            let index = Int.random(in: 0..<profile.customLinks.count, using: &random)
            profile.customLinks[index].icon = profile.customLinks[index].icon != nil && random.chance(0.5) ? nil : try newIcon(&self)
            return try writeProfile(handle, profile, "link \(profile.customLinks[index].label.debugDescription) icon \(profile.customLinks[index].icon ?? "removed")")
        default:
            guard !profile.items.isEmpty else { return nil }
            let index = Int.random(in: 0..<profile.items.count, using: &random)
            profile.items[index].icon = profile.items[index].icon != nil && random.chance(0.5) ? nil : try newIcon(&self)
            return try writeProfile(handle, profile, "item \(profile.items[index].text.debugDescription) icon \(profile.items[index].icon ?? "removed")")
        }
    }

    // MARK: Posts

    mutating func addPostWithCommand() throws -> String? {
        guard let handle = state.registered.isEmpty ? nil : random.pick(state.registered) else { return nil }
        let post = randomPost()
        let photo = random.pick(Self.photos)
        var arguments = ["post", "add", handle, photo.path, "--date", post.date, "--visibility", post.visibility, "--caption", post.caption]
        if let alt = post.alt { arguments += ["--alt", alt] }
        let slug = random.chance(0.7) ? random.pick(Self.slugs) : nil
        if let slug { arguments += ["--slug", slug] }
        try remember("content/posts/\(handle)")
        let result = runTomo(arguments + ["--site", site.path])
        let id = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.status == 0 {
            let file = id.split(separator: "/").last.map(String.init) ?? ""
            state.posts[id] = Post(photo: "\(file).jpg", date: post.date, alt: post.alt, visibility: post.visibility, caption: post.caption)
        }
        return "tomo \(Self.shown(arguments)) → exit \(result.status) \(result.status == 0 ? id : result.error.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    mutating func addPostByHand() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        let id = "\(handle)/\(random.pick(Self.slugs))"
        guard state.posts[id] == nil, !exists("content/posts/\(id).md") else { return nil }
        var post = randomPost()
        post.photo = "\(id.split(separator: "/")[1]).jpg"
        state.posts[id] = post
        try remember("content/posts/\(handle)")
        try copy(random.pick(Self.photos), to: "content/posts/\(folder(of: id))/\(post.photo)")
        try writePost(id)
        return "wrote the post content/posts/\(id).md (\(post.visibility), \(post.date)) and its photo by hand"
    }

    mutating func deletePost() throws -> String? {
        guard let id = pickPost() else { return nil }
        let post = state.posts[id]!
        try remember("content/posts/\(folder(of: id))", "content/store.json")
        if random.chance(0.5) {
            let result = runTomo(["post", "rm", id, "--yes", "--site", site.path])
            if result.status == 0 { state.posts[id] = nil }
            return "tomo post rm \(id) --yes → exit \(result.status)"
        }
        state.posts[id] = nil
        try remove("content/posts/\(id).md")
        try remove("content/posts/\(folder(of: id))/\(post.photo)")
        return "deleted content/posts/\(id).md and its photo by hand"
    }

    /// A post's file and photo moved to another user's folder, as `mv` would.
    mutating func movePost() throws -> String? {
        guard let id = pickPost(), let target = pickProfile() else { return nil }
        let (owner, slug) = Self.split(id)
        let post = state.posts[id]!
        let newID = "\(target)/\(slug)"
        guard target != owner, state.posts[newID] == nil, !exists("content/posts/\(newID).md"),
              !exists("content/posts/\(target)/\(post.photo)") else { return nil }
        try remember("content/posts/\(owner)", "content/posts/\(target)")
        try FileManager.default.createDirectory(at: url("content/posts/\(target)"), withIntermediateDirectories: true)
        try move("content/posts/\(folder(of: id))/\(post.photo)", to: "content/posts/\(folder(of: newID))/\(post.photo)")
        try move("content/posts/\(id).md", to: "content/posts/\(newID).md")
        state.posts[id] = nil
        state.posts[newID] = post
        return "mv content/posts/\(id).md (and its photo) to content/posts/\(newID).md"
    }

    mutating func editPost() throws -> String? {
        guard let id = pickPost() else { return nil }
        var post = state.posts[id]!
        let what: String
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            post.date = random.pick(Self.dates)
            what = "date \(post.date)"
        case 1:
            post.visibility = random.pick(["public", "public", "followers", "private"])
            what = "visibility \(post.visibility)"
        case 2:
            post.caption = next(random.pick(Self.captions))
            what = "caption \(post.caption.debugDescription)"
        default:
            post.alt = random.chance(0.2) ? nil : next(random.pick(Self.alts.compactMap { $0 }))
            what = "alt \(post.alt?.debugDescription ?? "removed")"
        }
        try remember("content/posts/\(id).md")
        state.posts[id] = post
        try writePost(id)
        return "wrote content/posts/\(id).md: \(what)"
    }

    mutating func replacePhoto() throws -> String? {
        guard let id = pickPost() else { return nil }
        let path = "content/posts/\(folder(of: id))/\(state.posts[id]!.photo)"
        let photo = random.pick(Self.photos)
        try remember(path)
        try copy(photo, to: path)
        return "replaced the photo \(path) with \(photo.lastPathComponent)"
    }

    mutating func hideOrUnhide() throws -> String? {
        guard let id = pickPost() else { return nil }
        let verb = state.hidden.contains(id) && random.chance(0.7) ? "unhide" : "hide"
        try remember("content/store.json")
        let result = runTomo(["post", verb, id, "--site", site.path])
        if result.status == 0 {
            if verb == "hide" { state.hidden.insert(id) } else { state.hidden.remove(id) }
        }
        return "tomo post \(verb) \(id) → exit \(result.status)"
    }

    // MARK: The store

    mutating func storeCommand() throws -> String? {
        guard state.registered.count >= 2 else { return nil }
        let first = random.pick(state.registered)
        let second = random.pick(state.registered.filter { $0 != first })
        var arguments: [String]
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: arguments = ["follow", first, second]
        case 2: arguments = ["unfollow", first, second]
        case 3: arguments = [random.chance(0.6) ? "block" : "unblock", first, second]
        default:
            guard let id = pickPost() else { return nil }
            arguments = [random.chance(0.65) ? "like" : "unlike", first, id]
        }
        try remember("content/store.json")
        let result = runTomo(arguments + ["--site", site.path])
        return "tomo \(Self.shown(arguments)) → exit \(result.status)"
    }

    // MARK: Users

    mutating func addUser() throws -> String? {
        // Now and then one named like a free page: the page and the profile want one address.
        let pool = Self.newHandles + (random.chance(0.3) ? Array(state.pages.keys.sorted().prefix(1)) : []) + (random.chance(0.3) ? state.renamedAway : [])
        let handle = random.pick(pool)
        let name = next(random.pick(Self.names))
        try remember("content/store.json", "content/users/\(handle).yaml")
        let result = runTomo(["user", "add", handle, "--name", name, "--site", site.path])
        if result.status == 0 {
            if !state.registered.contains(handle) { state.registered.append(handle) }
            if state.profiles[handle] == nil { state.profiles[handle] = Profile(name: name) } else { state.profiles[handle]!.name = name }
        }
        return "tomo user add \(handle) --name \(name.debugDescription) → exit \(result.status)"
    }

    mutating func removeUser() throws -> String? {
        guard state.registered.count > 2 else { return nil }
        let handle = random.pick(state.registered)
        try remember("content/store.json", "content/users/\(handle).yaml", "content/users/\(handle).json", "content/users/\(handle)", "content/posts/\(handle)")
        let result = runTomo(["user", "rm", handle, "--yes", "--site", site.path])
        if result.status == 0 { forget(handle) }
        return "tomo user rm \(handle) --yes → exit \(result.status)"
    }

    mutating func renameUser() throws -> String? {
        guard let old = state.registered.isEmpty ? nil : random.pick(state.registered) else { return nil }
        // Now and then back to a handle someone left (a→b→a, or a chain's end taking it).
        let new = random.pick((Self.newHandles + (random.chance(0.5) ? state.renamedAway : [])).filter { $0 != old })
        let paths = [old, new].flatMap { ["content/users/\($0).yaml", "content/users/\($0).json", "content/users/\($0)", "content/posts/\($0)"] }
        try remember(["content/store.json"] + paths)
        let result = runTomo(["user", "rename", old, new, "--site", site.path])
        if result.status == 0 { rename(old, to: new) }
        return "tomo user rename \(old) \(new) → exit \(result.status)"
    }

    /// The generator's model after a handle changed: profile, image paths, posts, store.
    private mutating func rename(_ old: String, to new: String) {
        if var profile = state.profiles.removeValue(forKey: old) {
            let moved = { (path: String?) in path.map { $0.hasPrefix(old + "/") ? new + $0.dropFirst(old.count) : $0 } }
            profile.icon = moved(profile.icon)
            profile.header = moved(profile.header)
            for index in profile.customLinks.indices { profile.customLinks[index].icon = moved(profile.customLinks[index].icon) }
            for index in profile.items.indices { profile.items[index].icon = moved(profile.items[index].icon) }
            state.profiles[new] = profile
        }
        for (id, post) in state.posts where id.hasPrefix(old + "/") {
            state.posts[id] = nil
            state.posts[new + id.dropFirst(old.count)] = post
        }
        state.registered = state.registered.map { $0 == old ? new : $0 }
        state.renamedAway = state.renamedAway.filter { $0 != new } + [old]
        state.hidden = Set(state.hidden.map { $0.hasPrefix(old + "/") ? new + $0.dropFirst(old.count) : $0 })
    }

    private mutating func forget(_ handle: String) {
        state.profiles[handle] = nil
        state.posts = state.posts.filter { !$0.key.hasPrefix(handle + "/") }
        state.registered.removeAll { $0 == handle }
    }

    // MARK: Pages, site settings, templates

    mutating func editPage() throws -> String? {
        let name = random.pick(Self.pageNames)
        let path = "content/pages/\(name).md"
        try remember(path)
        if state.pages[name] != nil, random.chance(0.35) {
            state.pages[name] = nil
            try remove(path)
            return "deleted \(path)"
        }
        var page = state.pages[name] ?? Page(title: name.capitalized, body: "")
        switch Int.random(in: 0..<3, using: &random) {
        case 0: page.title = next(name.capitalized)
        case 1: page.description = random.chance(0.3) ? nil : next("One sentence")
        default: page.body = next(random.pick(Self.captions))
        }
        state.pages[name] = page
        try write(path, page.text)
        return "wrote \(path): title \(page.title.debugDescription)"
    }

    mutating func editSiteConfig() throws -> String? {
        var config = state.config
        let what: String
        switch Int.random(in: 0..<12, using: &random) {
        case 0:
            config.title = next(random.pick(["Oracle", "オラクル", "A & B"]))
            what = "title \(config.title.debugDescription)"
        case 1:
            // Away from the preview's own address and back.
            config.baseURL = config.baseURL == baseURL ? random.pick(["https://other.example/", "https://example.com/sub/dir"]) : baseURL
            what = "baseURL \(config.baseURL)"
        case 2:
            config.language = random.pick(Self.languages.filter { $0 != config.language })
            what = "language \(config.language)"
        case 3:
            config.description = random.chance(0.3) ? nil : next("About")
            what = "description \(config.description?.debugDescription ?? "removed")"
        case 4:
            config.homeUsers = random.pick([nil, 1, 2, 4, 50])
            what = "homeUsers \(config.homeUsers.map(String.init) ?? "removed")"
        case 5:
            config.pageSize = random.pick([nil, 1, 2, 3])
            what = "pageSize \(config.pageSize.map(String.init) ?? "removed")"
        case 6:
            config.contact = random.chance(0.4) ? nil : "hello@site\(nextNumber()).example"
            what = "contact \(config.contact ?? "removed")"
        case 7:
            config.widths = random.pick([nil, [48, 96], [64], [32, 48, 96]])
            what = "images.widths \(config.widths.map { "\($0)" } ?? "removed")"
        case 8:
            // The site icon set, removed, or its image replaced (site.yaml itself unchanged).
            let icon = "content/brand/icon.jpg"
            if config.icon != nil, random.chance(0.5) {
                try remember(icon)
                try copy(random.pick(Self.photos), to: icon)
                return "replaced the site icon's image \(icon)"
            }
            if config.icon == nil {
                try remember(icon)
                try copy(random.pick(Self.photos), to: icon)
                config.icon = "brand/icon.jpg"
            } else {
                config.icon = nil
            }
            what = "icon \(config.icon ?? "removed")"
        case 9:
            config.qr.toggle()
            what = "qr \(config.qr)"
        case 10:
            what = "theme " + editTheme(&config.theme)
        default:
            config.disableKinds = ["timeline", "followers", "following", "feed"].filter { _ in random.chance(0.3) }
            what = "disableKinds \(config.disableKinds)"
        }
        try remember("content/site.yaml")
        state.config = config
        try write("content/site.yaml", config.text)
        return "wrote content/site.yaml: \(what)"
    }

    /// One key of a `theme:` set, changed or removed.
    private mutating func editTheme(_ theme: inout [ThemeKey]) -> String {
        let choices: [String: [[String]]] = [
            "accent": [["#00897b"], ["yellow"], ["#ffffff"], ["black"]],
            "background": [["#fce4ec"], ["#000000", "#ffffff"], ["red", "#00ff00"], ["#808080"]],
            "font": [["system"], ["serif"], ["rounded"], ["mono"]],
            "buttons": [["rounded"], ["pill"], ["square"], ["outline"]],
        ]
        let key = random.pick(choices.keys.sorted())
        theme.removeAll { $0.key == key }
        if random.chance(0.25) { return "\(key) removed" }
        let values = random.pick(choices[key] ?? [])
        theme.append(ThemeKey(key: key, values: values))
        return "\(key) \(values)"
    }

    mutating func editTemplate() throws -> String? {
        let labels = random.chance(0.2)
        // The site's language's file, or one along its fallbacks, or one of a profile's language.
        let name = labels ? "labels/\(random.pick(Self.labelFiles)).json" : random.pick(Self.templates)
        let path = "templates/\(name)"
        try remember(path)
        if exists(path), random.chance(0.4) {
            try remove(path)
            return "deleted the override \(path)"
        }
        if labels {
            let fans = next("fans")
            let forms = ["one", "few", "many", "other"].map { "\"\($0)\": \"{count} \(fans) \($0)\"" }.joined(separator: ", ")
            try write(path, "{\"followers\": \(quoted(next("Fans"))), \"noPosts\": \(quoted(next("Nothing yet"))), \"followersCount\": {\(forms)}}\n")
        } else {
            let builtin = try String(contentsOf: Self.theme.appendingPathComponent(name), encoding: .utf8)
            try write(path, builtin + "<!-- \(next("override")) -->\n")
        }
        return "wrote the override \(path)"
    }

    mutating func editStaticFile() throws -> String? {
        let name = random.pick(["style.css", "extra.css", "notes.txt"])
        let path = "templates/static/\(name)"
        try remember(path)
        if exists(path), random.chance(0.4) {
            try remove(path)
            return "deleted \(path)"
        }
        let builtin = name == "style.css" ? try String(contentsOf: Self.theme.appendingPathComponent("static/style.css"), encoding: .utf8) : ""
        try write(path, builtin + "/* \(next("static")) */\n")
        return "wrote \(path)"
    }

    /// A file of the root static folder written (text or bytes), deleted, or put where it
    /// replaces the default robots.txt; now and then one that collides with a page or a theme
    /// file, which fails the build.
    mutating func editRootFile() throws -> String? {
        let colliding = ["static/index.html", "static/\(pickProfile() ?? "alice")/index.html", "static/static/style.css", "static/feed.xml/x"]
        let name = random.chance(0.1)
            ? random.pick(colliding)
            : random.pick(["static/robots.txt", "static/.nojekyll", "static/CNAME", "static/_redirects", "static/.well-known/atproto-did", "static/deep/er/data.bin"])
        try remember(name)
        if exists(name), random.chance(0.4) {
            try remove(name)
            return "deleted \(name)"
        }
        if name.hasSuffix(".bin") {
            try write(name, Data((0..<256).map { UInt8($0) } + Array(next("bytes").utf8)))
        } else {
            try write(name, next("root file") + "\n")
        }
        return "wrote \(name)"
    }

    // MARK: Links and folder moves

    /// A user's post folder or profile moved into `stash/` inside the site and linked back.
    mutating func linkAside() throws -> String? {
        guard let handle = pickProfile() else { return nil }
        let posts = random.chance(0.6)
        let path = posts ? "content/posts/\(handle)" : "content/users/\(handle).\(state.profiles[handle]!.fileName)"
        guard exists(path), !isLink(path) else { return nil }
        let aside = posts ? "stash/posts-\(handle)" : "stash/\(handle).\(state.profiles[handle]!.fileName)"
        guard !exists(aside) else { return nil }
        try remember(path, aside)
        try FileManager.default.createDirectory(at: url("stash"), withIntermediateDirectories: true)
        try move(path, to: aside)
        try FileManager.default.createSymbolicLink(atPath: url(path).path, withDestinationPath: "../../" + aside)
        return "mv \(path) \(aside) && ln -s ../../\(aside) \(path)"
    }

    /// A user's profile replaced by a link to a copy outside the site, in one rename: the
    /// build must fail at the link. (A posts folder cannot be replaced by a link in one step:
    /// a preview that rebuilt between the move and the link would keep the site without those
    /// posts as its last good one, which no build saw.)
    mutating func linkFromOutside() throws -> String? {
        guard let handle = pickProfile(), let fileName = state.profiles[handle]?.fileName else { return nil }
        let path = "content/users/\(handle).\(fileName)"
        guard exists(path), !isLink(path) else { return nil }
        let target = outside.appendingPathComponent("\(handle).\(fileName)")
        guard !FileManager.default.fileExists(atPath: target.path) else { return nil }
        try remember(path)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: url(path), to: target)
        // Made under a hidden name, which the preview does not read, then renamed into place.
        let hidden = "content/users/.\(handle).link"
        try FileManager.default.createSymbolicLink(atPath: url(hidden).path, withDestinationPath: target.path)
        guard Glibc.rename(url(hidden).path, url(path).path) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return "ln -s \(target.path) \(path), renamed into place (a link out of the site)"
    }

    /// A link replaced by what it points at.
    mutating func unlink() throws -> String? {
        let links = ["content/posts", "content/users"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []).sorted().map { "\(folder)/\($0)" }.filter(isLink)
        }
        guard !links.isEmpty else { return nil }
        let path = random.pick(links)
        let target = url(path).resolvingSymlinksInPath()
        try remember(path)
        try remove(path)
        try FileManager.default.moveItem(at: target, to: url(path))
        return "rm \(path) && mv \(target.path) \(path) (the link replaced by its target)"
    }

    /// `mv` of a post folder to a user without one, or of a user's image folder with the
    /// profile pointed at the new place.
    mutating func moveFolder() throws -> String? {
        if random.chance(0.6) {
            let owners = postFolders()
            let targets = state.profiles.keys.sorted().filter { !exists("content/posts/\($0)") && !isLink("content/posts/\($0)") }
            guard !owners.isEmpty, !targets.isEmpty else { return nil }
            let (from, to) = (random.pick(owners), random.pick(targets))
            try remember("content/posts/\(from)", "content/posts/\(to)")
            try move("content/posts/\(from)", to: "content/posts/\(to)")
            for (id, post) in state.posts where id.hasPrefix(from + "/") {
                state.posts[id] = nil
                state.posts[to + id.dropFirst(from.count)] = post
            }
            return "mv content/posts/\(from) content/posts/\(to)"
        }
        guard let handle = pickProfile(), exists("content/users/\(handle)"), !isLink("content/users/\(handle)") else { return nil }
        let moved = "\(handle)_\(nextNumber())"
        var profile = state.profiles[handle]!
        let repoint = { (path: String?) in path.map { $0.hasPrefix(handle + "/") ? moved + $0.dropFirst(handle.count) : $0 } }
        profile.icon = repoint(profile.icon)
        profile.header = repoint(profile.header)
        for index in profile.customLinks.indices { profile.customLinks[index].icon = repoint(profile.customLinks[index].icon) }
        for index in profile.items.indices { profile.items[index].icon = repoint(profile.items[index].icon) }
        try remember("content/users/\(handle)", "content/users/\(moved)")
        try move("content/users/\(handle)", to: "content/users/\(moved)")
        return try writeProfile(handle, profile, "images moved: mv content/users/\(handle) content/users/\(moved)")
    }

    // MARK: Edits that fail the build

    mutating func breakBuild() throws -> String? {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            guard let handle = pickProfile() else { return nil }
            let path = "content/users/\(handle).\(state.profiles[handle]!.fileName)"
            try remember(path)
            try write(path, state.profiles[handle]!.text + (state.profiles[handle]!.json ? "{" : "items: [unclosed\n"))
            return "broke \(path): a syntax error"
        case 1:
            var path = "content/site.yaml"
            var text = state.config.text + "pagesize: 3\n"
            if random.chance(0.5), let handle = pickProfile(), let profile = state.profiles[handle], !profile.json {
                path = "content/users/\(handle).yaml"
                text = profile.text + "nmae: typo\n"
            }
            try remember(path)
            try write(path, text)
            return "broke \(path): an unknown key"
        case 2:
            guard let id = pickPost() else { return nil }
            let path = "content/posts/\(folder(of: id))/\(state.posts[id]!.photo)"
            try remember(path)
            try remove(path)
            return "deleted the photo \(path) (\(state.posts[id]!.visibility) post)"
        case 3:
            guard let id = pickPost() else { return nil }
            try remember("content/posts/\(id).md")
            try write("content/posts/\(id).md", state.posts[id]!.text.replacingOccurrences(of: "date: ", with: "date: May "))
            return "broke content/posts/\(id).md: a date that is none"
        case 4:
            let name = random.pick(Self.templates)
            try remember("templates/\(name)")
            try write("templates/\(name)", "<p>{{#user}}never closed</p>\n")
            return "broke templates/\(name): a section never closed"
        case 5:
            // Posts left without a profile.
            guard let id = pickPost() else { return nil }
            let handle = Self.split(id).handle
            guard let profile = state.profiles[handle] else { return nil }
            let path = "content/users/\(handle).\(profile.fileName)"
            try remember(path)
            try remove(path)
            return "deleted \(path) by hand, leaving its posts"
        case 6:
            let owners = postFolders()
            guard !owners.isEmpty else { return nil }
            let from = random.pick(owners)
            guard !exists("content/posts/nobody") else { return nil }
            try remember("content/posts/\(from)", "content/posts/nobody")
            try move("content/posts/\(from)", to: "content/posts/nobody")
            return "mv content/posts/\(from) content/posts/nobody (no such user)"
        default:
            // A free page named like a user.
            guard let handle = pickProfile() else { return nil }
            try remember("content/pages/\(handle).md")
            try write("content/pages/\(handle).md", Page(title: "Clash", body: "Named like a user.").text)
            return "wrote content/pages/\(handle).md, named like the user \(handle)"
        }
    }

    // MARK: Helpers

    private mutating func pickProfile() -> String? {
        let handles = state.profiles.keys.sorted().filter { exists("content/users/\($0).\(state.profiles[$0]!.fileName)") }
        return handles.isEmpty ? nil : random.pick(handles)
    }

    private mutating func pickPost() -> String? {
        let ids = state.posts.keys.sorted().filter { exists("content/posts/\($0).md") }
        return ids.isEmpty ? nil : random.pick(ids)
    }

    /// The handles whose post folder exists (as a folder or a link), sorted.
    private func postFolders() -> [String] {
        Set(state.posts.keys.map { Self.split($0).handle }).sorted().filter { exists("content/posts/\($0)") }
    }

    private mutating func randomPost() -> Post {
        Post(photo: "", date: random.pick(Self.dates), alt: random.pick(Self.alts),
             visibility: random.pick(["public", "public", "public", "followers", "private"]), caption: random.pick(Self.captions))
    }

    /// `text` with a number that no earlier value had.
    private mutating func next(_ text: String) -> String {
        text.isEmpty ? "" : "\(text) \(nextNumber())"
    }

    /// A number that no earlier value had, for addresses and names without spaces.
    private mutating func nextNumber() -> String {
        version += 1
        return String(version)
    }

    private mutating func writeProfile(_ handle: String, _ profile: Profile, _ what: String) throws -> String {
        let path = "content/users/\(handle).\(profile.fileName)"
        try remember(path)
        state.profiles[handle] = profile
        try write(path, profile.text)
        return "wrote \(path): \(what)"
    }

    private func writePost(_ id: String) throws {
        try write("content/posts/\(id).md", state.posts[id]!.text)
    }

    /// The folder of a post (its handle), as its id says.
    private func folder(of id: String) -> String { Self.split(id).handle }

    static func split(_ id: String) -> (handle: String, slug: String) {
        let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }

    /// A date `days` from today, as `from`/`until` write a whole day.
    static func day(_ days: Int) -> String {
        String(ISO8601DateFormatter.string(from: Date().addingTimeInterval(Double(days) * 86_400), timeZone: TimeZone(identifier: "UTC")!,
                                           formatOptions: [.withFullDate]))
    }

    /// A time `days` from now, with an offset.
    static func time(_ days: Int) -> String {
        ISO8601DateFormatter.string(from: Date().addingTimeInterval(Double(days) * 86_400), timeZone: TimeZone(secondsFromGMT: 9 * 3600)!,
                                    formatOptions: [.withInternetDateTime])
    }

    static func shown(_ arguments: [String]) -> String {
        arguments.map { $0.contains(" ") || $0.isEmpty ? $0.debugDescription : $0 }.joined(separator: " ")
    }

    func url(_ path: String) -> URL { site.appendingPathComponent(path) }

    func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(url(path).path, &status) == 0
    }

    func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(url(path).path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Writes `text` where `path` leads (through links, as an editor saves), by a rename.
    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let target = url(path).resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target, options: .atomic)
    }

    func copy(_ source: URL, to path: String) throws {
        try write(path, Data(contentsOf: source))
    }

    func remove(_ path: String) throws {
        if exists(path) { try FileManager.default.removeItem(at: url(path)) }
    }

    func move(_ path: String, to destination: String) throws {
        try FileManager.default.moveItem(at: url(path), to: url(destination))
    }

    /// Saves `paths` as they are now (and the model), for an undo after a failed build.
    private mutating func remember(_ paths: String...) throws {
        try remember(paths)
    }

    private mutating func remember(_ paths: [String]) throws {
        if undo == nil { undo = Undo(state: state, saved: []) }
        for path in paths where !undo!.saved.contains(where: { $0.path == path }) {
            undo!.saved.append((path, try Saved(url(path))))
        }
    }

    struct Undo {
        var state: SiteState
        var saved: [(path: String, saved: Saved)]
    }
}
