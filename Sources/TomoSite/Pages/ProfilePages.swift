import TomoContent
import TomoCore

/// `/<handle>/`: a user's profile page (icon, header, bio, links, items, their posts' grid and
/// follow counts). Its plan and its view, side by side.
enum ProfilePages {
    /// The longest JSON-LD `description` of a person: the bio as plain text, shortened at a
    /// word beyond this many characters.
    static let describedLength = 1_000

    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        for profile in model.content.profiles {
            let handle = profile.handle
            files.append(PlannedFile(
                path: "\(handle)/index.html",
                inputLists: [SitePlan.everyPage, [.profile(handle), .postsOf(handle), .postStats(handle), .followers(handle), .following(handle)]],
                source: .page(template: "profile") { views in views.profile(handle).map(views.profilePage) ?? .null }
            ))
            ProfileFiles.plan(handle, into: &files)
        }
    }
}

extension PageViews {
    func profilePage(_ profile: Profile) -> JSONValue {
        let handle = profile.handle
        let header = header(of: profile)
        let card = card(handle)
        let icon = card?.icon
        let links: [JSONValue] = profile.links.map { link in
            [
                "service": .string(link.service?.key ?? "custom"),
                "label": .string(link.label),
                "url": .string(link.url),
                "image": ownIcon(link.icon, of: profile),
                // A service's mark: the theme's own template, or the brand's path data drawn by
                // icons/brand; a link of the profile's own without an icon gets the website's.
                "iconPartial": .string("icons/" + (link.service.map { $0.markPath == nil ? $0.key : "brand" } ?? "website")),
                "markPath": JSONValue(link.service?.markPath),
            ]
        }
        let items: [JSONValue] = shownItems(of: profile).map { item in
            [
                "text": .string(item.text),
                "url": JSONValue(item.url),
                "isLink": .bool(item.url != nil),
                "background": .string(item.color.hex),
                "foreground": .string(item.color.textColor.hex),
                "image": ownIcon(item.icon, of: profile),
            ]
        }
        let followers = followers(of: handle).count
        let following = following(of: handle).count
        let ownPosts = posts(of: handle)
        let labels = labels(in: language(of: card))
        // The header (or icon) loads first; the grid's photos come after it.
        let firstPhoto = header == nil && icon == nil ? 0 : 1
        let user: JSONValue = [
            "posts": .array(ownPosts.enumerated().map { postCard($1, position: $0 + firstPhoto, labels: labels) }),
            "hasPosts": .bool(!ownPosts.isEmpty),
            "postsCount": .int(ownPosts.count),
            "postsText": .string(labels.text("postsCount", count: ownPosts.count)),
            "noPostsText": .string(labels.text("noPosts")),
            "timelineURL": link(.timeline, handle + "/timeline/"),
            "timelineText": .string(labels.text("timeline")),
            "feedURL": link(.feed, handle + "/feed.xml"),
            "followersCount": .int(followers),
            "followingCount": .int(following),
            "followersText": .string(labels.text("followersCount", count: followers)),
            "followingText": .string(labels.text("followingCount", count: following)),
            "followersURL": link(.followers, handle + "/followers/"),
            "followingURL": link(.following, handle + "/following/"),
            "handle": .string(handle),
            "name": .string(profile.name),
            "initial": .string(Self.initial(of: profile.name)),
            "url": .string(address.path(handle + "/")),
            "bioHTML": .string(MarkdownLinks.underRoot(profile.bio?.html ?? "", address: address)),
            "bioText": .string(profile.bioSummary ?? ""),
            "icon": icon?.view(loading: header == nil ? .eager : .lazy, at: address) ?? .null,
            "header": header?.view(loading: .eager, at: address) ?? .null,
            "links": .array(links),
            "hasLinks": .bool(!links.isEmpty),
            "items": .array(items),
            "hasItems": .bool(!items.isEmpty),
            "email": JSONValue(profile.publicEmail),
            "emailHref": JSONValue(profile.publicEmail.map(URLRules.mailtoURL)),
            "contactURL": .string(address.path(ProfileFiles.contactPath(handle))),
            "qr": config.qr ? ["src": .string(address.path(ProfileFiles.qrPath(handle))), "alt": .string(labels.text("qrCodeOf", name: profile.name))] : .null,
        ]
        let headerPreview = header.map { PreviewImage($0, alt: labels.isolatingText("headerOf", name: profile.name).description) }
        let iconImage = card.flatMap { iconPreview($0, labels: labels) }
        let person = card.map { card in
            personLD(card, members: [
                "image": (iconImage ?? headerPreview).map { .string(address.absolute($0.path)) },
                // The whole bio, up to a length a search engine reads (a bio may be a book).
                "description": profile.bio.map { .string($0.plainText.shortened(toAtMost: ProfilePages.describedLength)) },
                "sameAs": .array(profile.links.filter(\.isWebPage).map { .string($0.url) }),
            ])
        }
        let jsonLD = ScriptJSON.schema("ProfilePage", ["url": .string(address.absolute(handle + "/")), "mainEntity": person])
        return view(
            title: "\(profile.name) (@\(handle)) · \(config.title)",
            heading: profile.name,
            description: profile.bioSummary,
            path: handle + "/",
            type: "profile",
            image: shareCard(ofProfile: handle) ?? headerPreview ?? iconImage,
            labels: labels,
            meta: [
                "username": .string(handle),
                "fediverseCreator": JSONValue(card?.fediverseCreator),
                "jsonLD": .string(ScriptJSON.text(jsonLD)),
                "theme": ProfileLook.view(config.look.overridden(by: profile.look)),
            ],
            fields: ["user": user]
        )
    }

    /// A link's or an item's own icon (a path relative to `content/users/`) as `<picture>`
    /// fields; null without one.
    private func ownIcon(_ path: String?, of profile: Profile) -> JSONValue {
        image(path, of: profile)?.view(loading: .lazy, at: address) ?? .null
    }
}
