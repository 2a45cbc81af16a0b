/// Read-only questions the CLI and the site builder ask of the store.
extension Store {
    public func user(_ handle: String) -> User? { users.record(for: handle) }

    /// Users newest first: the last registered first, whatever the clock said (ties, possible
    /// only in a hand-edited store, by handle).
    public var usersNewestFirst: [User] {
        users.sorted { $0.sequence != $1.sequence ? $0.sequence > $1.sequence : $0.handle < $1.handle }
    }

    /// Who `handle` follows (accepted follows only), sorted.
    public func following(_ handle: String) -> [String] {
        needs(.follows)
        return outgoingFollows(handle).filter { $0.status == .accepted }.map(\.to)
    }

    /// Who follows `handle` (accepted follows only), sorted.
    public func followers(_ handle: String) -> [String] {
        needs(.follows)
        return follows.filter { $0.to == handle && $0.status == .accepted }.map(\.from).sorted()
    }

    /// How many accepted followers each followed user has, in one pass over the follows: for a
    /// list of every user, where asking `followers` of each would read the follows once per user.
    public var followerCounts: [String: Int] {
        needs(.follows)
        var counts: [String: Int] = [:]
        for follow in follows where follow.status == .accepted { counts[follow.to, default: 0] += 1 }
        return counts
    }

    /// Handles waiting for `handle`'s approval, oldest request first; one millisecond's (a
    /// `tomo batch`'s) in the order they were made.
    public func requests(_ handle: String) -> [String] {
        needs(.follows)
        return follows.filter { $0.to == handle && $0.status == .pending }.sorted(by: Follow.isOlderRequest).map(\.from)
    }

    /// Whom `handle` blocks, sorted.
    public func blocking(_ handle: String) -> [String] {
        needs(.blocks)
        let start = blocks.search(RecordPair(first: handle, second: "")).index
        return blocks[start...].prefix { $0.from == handle }.map(\.to)
    }

    /// True when either user blocks the other.
    public func isBlocked(between first: String, _ second: String) -> Bool {
        block(between: first, second) != nil
    }

    /// The block between two users, either way (`first`'s of `second` when both block).
    func block(between first: String, _ second: String) -> Block? {
        needs(.blocks)
        return blocks.record(for: RecordPair(first: first, second: second))
            ?? blocks.record(for: RecordPair(first: second, second: first))
    }

    /// Whose posts `handle`'s timeline shows: themselves and everyone they follow (accepted),
    /// minus anyone in a block with them either way. Sorted.
    public func timelineOwners(_ handle: String) -> [String] {
        needs(.follows, .blocks)
        var owners = following(handle).filter { !isBlocked(between: handle, $0) }
        owners.sortedInsert(handle)
        return owners
    }

    public func likeCount(_ post: String) -> Int {
        needs(.likes)
        return likes.record(for: post)?.users.count ?? 0
    }

    public func likers(_ post: String) -> [String] {
        needs(.likes)
        return likes.record(for: post)?.users ?? []
    }

    public func isHidden(_ post: String) -> Bool {
        needs(.hidden)
        return hiddenPosts.sortedSearch(post).found
    }

    /// Users `handle` accepted who accepted `handle` too, sorted.
    public func matches(_ handle: String) -> [String] {
        needs(.picks)
        // Nobody is matched across a block, as nobody picks across one.
        return outgoingPicks(handle).filter { pick in
            pick.decision == .accept && picks.record(for: RecordPair(first: pick.to, second: handle))?.decision == .accept
                && !isBlocked(between: handle, pick.to)
        }.map(\.to)
    }

    private func outgoingFollows(_ handle: String) -> ArraySlice<Follow> {
        let start = follows.search(RecordPair(first: handle, second: "")).index
        return follows[start...].prefix { $0.from == handle }
    }

    func outgoingPicks(_ handle: String) -> ArraySlice<Pick> {
        let start = picks.search(RecordPair(first: handle, second: "")).index
        return picks[start...].prefix { $0.from == handle }
    }
}
