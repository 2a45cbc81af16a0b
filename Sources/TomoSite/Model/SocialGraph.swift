import Foundation
import TomoContent
import TomoStore

/// The store's relations indexed once per build, limited to users who have a profile page (a
/// store entry without a profile file has no page to link to).
struct SocialGraph: Sendable {
    /// Handle → who follows them (accepted), sorted.
    private(set) var followers: [String: [String]] = [:]
    /// Handle → who they follow (accepted), sorted.
    private(set) var following: [String: [String]] = [:]
    /// Handle → everyone in a block with them, in either direction.
    private(set) var blocked: [String: Set<String>] = [:]
    /// Post id → who likes it, sorted (every like counts, profile or not).
    private(set) var likers: [String: [String]] = [:]
    /// Post ids kept out of the output.
    let hidden: Set<String>
    /// Handles with a profile, newest registration first (store order), then those the store
    /// does not know, by handle.
    let newestFirst: [String]
    /// When a user registered, as the store says (a `created` that reads as a date), and their
    /// registration order: what their feed's ids are made of (`FeedIDs`), and what an empty
    /// feed of theirs says it was updated.
    struct Registration: Sendable, Hashable {
        var date: Date
        /// The store's `sequence`: given once, never changed, never given to another user.
        var sequence: Int
    }

    private let registered: [String: Registration]
    /// The latest of those: what the site feed says while no post is published.
    let newestRegistration: Date?
    /// Old handle → the handle with a profile its user has now, through every later rename
    /// (`Store.renamedHandles`); none for a handle registered again or someone's profile.
    let renamed: [String: String]

    init(store: Store, profiles: Set<String>) {
        // Sized once: grown by doubling, the tables of 10,000 users were copied over and over.
        followers.reserveCapacity(profiles.count)
        following.reserveCapacity(profiles.count)
        likers.reserveCapacity(store.likes.count)
        for follow in store.follows where follow.status == .accepted && profiles.contains(follow.from) && profiles.contains(follow.to) {
            followers[follow.to, default: []].append(follow.from)
            following[follow.from, default: []].append(follow.to)
        }
        for handle in followers.keys { followers[handle]?.sort() }
        for handle in following.keys { following[handle]?.sort() }
        for block in store.blocks {
            blocked[block.from, default: []].insert(block.to)
            blocked[block.to, default: []].insert(block.from)
        }
        for likes in store.likes {
            likers[likes.post] = likes.users
        }
        hidden = Self.hiddenPosts(in: store)
        let users = store.usersNewestFirst.filter { profiles.contains($0.handle) }
        let known = Set(users.map(\.handle))
        newestFirst = users.map(\.handle) + profiles.filter { !known.contains($0) }.sorted()
        registered = Dictionary(users.compactMap { user in
            WrittenDate.parse(user.created).map { (user.handle, Registration(date: $0.instant, sequence: user.sequence)) }
        }, uniquingKeysWith: { first, _ in first })
        newestRegistration = registered.values.lazy.map(\.date).max()
        renamed = store.renamedHandles { profiles.contains($0) }.filter { profiles.contains($0.value) }
    }

    /// The ids of the posts `store` keeps out of the output. A `tomo user rename OLD NEW`
    /// stopped half way (a kill, a folder it could not write) has the store's hidden marks at
    /// `NEW/slug` while the posts are still at `OLD/slug`: a post is kept out under every
    /// unregistered handle that was renamed to the one its mark names, so no hidden post is
    /// published until the rename is finished, and none after.
    static func hiddenPosts(in store: Store) -> Set<String> {
        var hidden = Set(store.hiddenPosts)
        guard !hidden.isEmpty, !store.renames.isEmpty else { return hidden }
        // Every unregistered old handle, whether a profile is still there or not.
        let renamed = store.renamedHandles { _ in false }
        guard !renamed.isEmpty else { return hidden }
        var slugsByHandle: [Substring: [Substring]] = [:]
        for id in store.hiddenPosts {
            guard let slash = id.firstIndex(of: "/") else { continue }
            slugsByHandle[id[..<slash], default: []].append(id[id.index(after: slash)...])
        }
        for (old, current) in renamed {
            for slug in slugsByHandle[current[...]] ?? [] { hidden.insert(old + "/" + slug) }
        }
        return hidden
    }

    func registration(of handle: String) -> Registration? { registered[handle] }

    func followers(of handle: String) -> [String] { followers[handle] ?? [] }
    func following(of handle: String) -> [String] { following[handle] ?? [] }
    func likers(of post: String) -> [String] { likers[post] ?? [] }

    func isBlocked(_ first: String, _ second: String) -> Bool {
        blocked[first]?.contains(second) ?? false
    }

    /// Whose posts `handle`'s timeline shows: themselves and everyone they follow (accepted),
    /// less anyone in a block with them either way.
    func timelineOwners(of handle: String) -> [String] {
        [handle] + following(of: handle).filter { !isBlocked(handle, $0) }
    }
}
