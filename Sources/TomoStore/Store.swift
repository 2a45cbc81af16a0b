import TomoCore

/// The social graph of one site: users, follows and follow requests, blocks, likes, reports,
/// picks, hidden posts and past renames. Changed only through the rule methods (which keep every array sorted
/// and every rule of the design), read through the queries, saved by `StoreFile`.
public struct Store: Sendable, Hashable {
    /// The format version this build writes; a newer one is refused, older ones are migrated
    /// (`StoreMigration`).
    public static let currentVersion = 3

    /// Sorted by handle.
    public internal(set) var users: [User] = []
    /// The highest registration `sequence` given so far; the next user gets the one after it.
    var highestSequence = 0
    /// The highest request `order` given so far; the next request gets the one after it.
    var highestRequestOrder = 0
    /// Sorted by follower, then followed user.
    public internal(set) var follows: [Follow] = []
    /// Sorted by blocker, then blocked user.
    public internal(set) var blocks: [Block] = []
    /// Sorted by post id; each post's likers sorted.
    public internal(set) var likes: [PostLikes] = []
    /// In the order they were made.
    public internal(set) var reports: [Report] = []
    /// Sorted by picker, then picked user.
    public internal(set) var picks: [Pick] = []
    /// Post ids kept out of the output, sorted.
    public internal(set) var hiddenPosts: [String] = []
    /// Every `tomo user rename`, in the order they were made.
    public internal(set) var renames: [Rename] = []

    /// With `.followPairs`: the file's accepted follows, as its bytes (`follows` then holds only
    /// requests and the follows this command added or changed).
    var rawFollows: RawSection<Follow>?
    /// With `.likePairs`: the file's likes, as its bytes (`likes` then holds only the posts whose
    /// likes this command changed).
    var rawLikes: RawSection<PostLikes>?

    /// During bulk inserts (`beginBulkInserts`): new follows and likes whose keys are not in the
    /// sorted arrays yet, merged into them with one sort when the bulk ends. Inserting 700,000
    /// records one by one into the middle of sorted arrays moves memory quadratically.
    var pendingFollows: [RecordPair: Follow]?
    var pendingLikes: [String: PostLikes]?

    /// What the file's records held that no command writes, as the file was read (`RecordProblem`).
    var recordProblems: [RecordProblem] = []

    /// The parts decoded from the file; the others are empty here and kept in `verbatim`.
    public internal(set) var loaded: Set<StoreSection> = Set(StoreSection.allCases)
    /// The file's bytes for each part a command did not need, keyed by the file's section name;
    /// written back unchanged so a `tomo follow` never decodes or re-encodes 500,000 likes.
    var verbatim: [String: ArraySlice<UInt8>] = [:]

    public init() {}

    /// Rules call this first: using a part that was not read, or reading all follows or likes
    /// while bulk inserts wait to be merged, is a programming error, not bad input.
    func needs(_ sections: StoreSection...) {
        for section in sections {
            precondition(loaded.contains(section), "the store was read without its \(section) section")
            precondition(section != .follows || pendingFollows?.isEmpty ?? true, "follows read before the bulk inserts were settled")
            precondition(section != .likes || pendingLikes?.isEmpty ?? true, "likes read before the bulk inserts were settled")
        }
    }

    /// From here on, new follows and likes are collected aside and sorted into place once, by
    /// `endBulkInserts` (which `StoreFile.update` calls before it writes). Lookups and the rules
    /// work as before; only their cost changes.
    public mutating func beginBulkInserts() {
        if pendingFollows == nil { pendingFollows = [:] }
        if pendingLikes == nil { pendingLikes = [:] }
    }

    /// Merges the collected follows and likes into the sorted arrays and ends bulk inserts.
    public mutating func endBulkInserts() {
        settleBulkInserts()
        pendingFollows = nil
        pendingLikes = nil
    }

    /// Merges the collected follows and likes, staying in bulk mode: for the rules that read
    /// every follow or like (removing or renaming a user).
    mutating func settleBulkInserts() {
        if let pending = pendingFollows, !pending.isEmpty {
            follows.insertNewRecords(Array(pending.values))
            pendingFollows = [:]
        }
        if let pending = pendingLikes, !pending.isEmpty {
            likes.insertNewRecords(Array(pending.values))
            pendingLikes = [:]
        }
    }

    /// For rules that work on single follow pairs: either way of reading follows will do.
    func needsFollowPairs() {
        precondition(loaded.contains(.follows) || loaded.contains(.followPairs), "the store was read without its follows")
    }

    /// The follow or request from `key.first` to `key.second`.
    func followRecord(for key: RecordPair) -> Follow? {
        pendingFollows?[key] ?? follows.record(for: key) ?? rawFollows?.record(for: key)
    }

    /// Adds or replaces a follow or request (a new one waits aside during bulk inserts).
    mutating func storeFollow(_ follow: Follow) {
        _ = rawFollows?.remove(follow.key)
        if pendingFollows != nil, !follows.search(follow.key).found {
            pendingFollows?[follow.key] = follow
        } else {
            follows.upsert(follow)
        }
    }

    /// Removes a follow or request; true when there was one.
    mutating func deleteFollow(_ key: RecordPair) -> Bool {
        let removedPending = pendingFollows?.removeValue(forKey: key) != nil
        let removedDecoded = follows.remove(key)
        let removedRaw = rawFollows?.remove(key) ?? false
        return removedPending || removedDecoded || removedRaw
    }

    /// For like and unlike: either way of reading likes will do.
    func needsLikePairs() {
        precondition(loaded.contains(.likes) || loaded.contains(.likePairs), "the store was read without its likes")
    }

    /// Who likes `post`, as a record (nil when nobody does).
    func likeRecord(for post: String) -> PostLikes? {
        pendingLikes?[post] ?? likes.record(for: post) ?? rawLikes?.record(for: post)
    }

    /// Replaces the likes of `record.post` (none left: the post's line goes; a new post's likes
    /// wait aside during bulk inserts).
    mutating func storeLikes(_ record: PostLikes) {
        _ = rawLikes?.remove(record.post)
        if record.users.isEmpty {
            pendingLikes?.removeValue(forKey: record.post)
            likes.remove(record.post)
        } else if pendingLikes != nil, !likes.search(record.post).found {
            pendingLikes?[record.post] = record
        } else {
            likes.upsert(record)
        }
    }

    /// The ids of `owner`'s posts that someone likes, sorted: a post id is `<owner>/<slug>`, so
    /// they are one run of the sorted likes.
    func likedPosts(of owner: String) -> [String] {
        let prefix = PostID.ownerPrefix(owner)
        var posts = Set(pendingLikes?.keys.filter { $0.hasPrefix(prefix) } ?? [])
        posts.formUnion(decodedLikes(ofPostsOf: owner).map(\.post))
        posts.formUnion(rawLikes?.posts(withPrefix: prefix) ?? [])
        return posts.sorted()
    }

    /// The decoded likes of `owner`'s posts: one run of the sorted likes.
    func decodedLikes(ofPostsOf owner: String) -> ArraySlice<PostLikes> {
        let prefix = PostID.ownerPrefix(owner)
        return likes[likes.search(prefix).index...].prefix { $0.post.hasPrefix(prefix) }
    }

    /// Removes `liker`'s likes of `owner`'s posts; how many there were.
    mutating func removeLikes(by liker: String, ofPostsOf owner: String) -> Int {
        // The owner's posts are one run of the sorted likes; likes still aside from a bulk
        // insert would have to be scanned whole, once per block of a large import.
        settleBulkInserts()
        var removed = 0
        for post in likedPosts(of: owner) {
            guard var record = likeRecord(for: post), record.users.sortedRemove(liker) else { continue }
            storeLikes(record)
            removed += 1
        }
        return removed
    }

    /// The user, or a refusal that names the closest registered handle.
    public func requireUser(_ handle: String) throws(Diagnostic) -> User {
        needs(.users)
        if let user = users.record(for: handle) { return user }
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
        let hint = Suggestion.hint(for: handle, in: users.lazy.map(\.handle))
        throw Diagnostic("unknown user \"\(handle)\"\(hint): register them with `tomo user add \(handle)`")
    }
}

/// The parts of the store, each read only by the commands that need it.
public enum StoreSection: String, Sendable, Hashable, CaseIterable {
    case users
    /// Accepted follows and pending requests (the file's "follows" and "requests").
    case follows
    /// Enough of the follows to look at and change single pairs (follow, unfollow, accept,
    /// decline, block): accepted follows stay the file's bytes, indexed. Much faster on a big
    /// store; the queries over all follows need `.follows`.
    case followPairs
    case likes
    /// Enough of the likes to look at and change single posts' likes (like, unlike): the
    /// posts' lines stay the file's bytes, indexed. The queries over all likes need `.likes`.
    case likePairs
    case blocks
    case reports
    case picks
    case hidden
    case renames

    /// The file's section names for this part.
    var fileSections: [String] {
        switch self {
        case .follows, .followPairs: ["follows", "requests"]
        case .likes, .likePairs: ["likes"]
        default: [rawValue]
        }
    }
}

/// What a rule did: a change to save, or a repeated request that changed nothing (exit 0, said so).
public struct Outcome: Sendable, Hashable, CustomStringConvertible {
    public var changed: Bool
    public var message: String

    public static func changed(_ message: String) -> Outcome { Outcome(changed: true, message: message) }
    public static func unchanged(_ message: String) -> Outcome { Outcome(changed: false, message: message) }

    public var description: String { message }
}
