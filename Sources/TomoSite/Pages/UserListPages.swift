import TomoContent
import TomoCore

/// `/<handle>/followers/` and `/<handle>/following/`: the users as cards. Plan and view side
/// by side.
enum UserListPages {
    enum Kind: String, Sendable {
        case followers, following

        var pageKind: SiteConfig.PageKind { self == .followers ? .followers : .following }
    }

    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        for kind in [Kind.followers, .following] where model.content.config.publishes(kind.pageKind) {
            for profile in model.content.profiles {
                let handle = profile.handle
                // A list shows the cards of the users in it, so it reads their cards too.
                let listed = kind == .followers ? model.graph.followers(of: handle) : model.graph.following(of: handle)
                let relation: InputKey = kind == .followers ? .followers(handle) : .following(handle)
                files.append(PlannedFile(
                    path: "\(handle)/\(kind.rawValue)/index.html",
                    inputLists: [SitePlan.everyPage, [.card(handle), relation] + listed.map(InputKey.card)],
                    source: .page(template: "user-list") { views in views.card(handle).map { views.userList(kind, of: $0) } ?? .null }
                ))
            }
        }
    }
}

extension PageViews {
    /// The followers or following page of `owner`.
    func userList(_ kind: UserListPages.Kind, of owner: UserCard) -> JSONValue {
        let handles = kind == .followers ? followers(of: owner.handle) : following(of: owner.handle)
        let labels = labels(in: language(of: owner))
        let heading = labels.text(kind == .followers ? "followersOf" : "followedBy", name: owner.name)
        return view(
            title: "\(labels.isolatingText(kind == .followers ? "followersOf" : "followedBy", name: owner.name)) · \(config.title)",
            heading: heading,
            description: nil,
            path: "\(owner.handle)/\(kind.rawValue)/",
            type: "website",
            image: iconPreview(owner, labels: labels),
            indexing: .noindex,
            labels: labels,
            fields: [
                "owner": ownerView(owner),
                "users": .array(cardViews(handles)),
                "hasUsers": .bool(!handles.isEmpty),
                "backText": .string(labels.text("backToProfile", name: owner.name)),
                "emptyText": .string(labels.text(kind == .followers ? "noFollowers" : "noFollowing")),
            ]
        )
    }
}
