import TomoCore

/// What the store needs to know of a post file before a like: its visibility, or nil when
/// there is no such post.
public enum PostVisibility: String, Sendable, Hashable, CaseIterable {
    case `public`
    case followers
    case `private`
    /// `draft: true`, whatever its `visibility:`: no build publishes it (but one with `--drafts`,
    /// a preview of the author's).
    case draft
}

/// Likes, reports and hidden posts.
extension Store {
    /// One like per user and post; refused for a post that is missing, not public, a draft or
    /// hidden (no page shows it, or its count), and when the post's owner and the user are in a
    /// block, either way.
    public mutating func like(_ user: String, _ post: PostID, visibility: PostVisibility?) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks, .hidden)
        needsLikePairs()
        _ = try requireUser(user)
        try requireLikeable(post, visibility: visibility)
        if blocks.record(for: RecordPair(first: post.handle, second: user)) != nil {
            throw Diagnostic("\(post.handle) blocks \(user), so \(user) cannot like \(post)")
        }
        if blocks.record(for: RecordPair(first: user, second: post.handle)) != nil {
            throw Diagnostic("\(user) blocks \(post.handle), so \(user) cannot like \(post): `tomo unblock \(user) \(post.handle)` first")
        }
        let id = post.description
        var record = likeRecord(for: id) ?? PostLikes(post: id, users: [])
        if !record.users.sortedInsert(user) { return .unchanged("\(user) already likes \(id)") }
        storeLikes(record)
        return .changed("\(user) likes \(id) (\(Plural.count(record.users.count, "like")))")
    }

    public mutating func unlike(_ user: String, _ post: PostID) throws(Diagnostic) -> Outcome {
        needs(.users)
        needsLikePairs()
        _ = try requireUser(user)
        let id = post.description
        guard var record = likeRecord(for: id), record.users.sortedRemove(user) else { return .unchanged("\(user) does not like \(id)") }
        storeLikes(record)
        return .changed("\(user) no longer likes \(id)")
    }

    /// A report for the site's moderators; one per user and post. Reporting the same post again
    /// with another reason updates the reason, and the report keeps its date and its place in
    /// the list (oldest first: when the user first reported it).
    public mutating func report(_ user: String, _ post: PostID, reason: String, visibility: PostVisibility?, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users, .reports)
        _ = try requireUser(user)
        if visibility == nil { throw Self.missingPost(post) }
        try requireOwner(of: post)
        let reason = reason.trimmingWhitespace()
        if !Report.hasReason(reason) { throw Diagnostic("a report needs a reason: --reason \"what is wrong\"") }
        let id = post.description
        if let index = reports.firstIndex(where: { $0.user == user && $0.post == id }) {
            let old = reports[index].reason
            if old == reason { return .unchanged("\(user) already reported \(id) for that reason") }
            reports[index].reason = reason
            return .changed("\(user)'s report of \(id) now gives the reason \"\(reason)\" (it was \"\(old)\")")
        }
        reports.append(Report(user: user, post: id, reason: reason, created: time))
        return .changed("\(user) reported \(id)")
    }

    /// Keeps a post out of the output until `unhidePost`.
    public mutating func hidePost(_ post: PostID, visibility: PostVisibility?) throws(Diagnostic) -> Outcome {
        needs(.hidden)
        if visibility == nil { throw Self.missingPost(post) }
        if !hiddenPosts.sortedInsert(post.description) { return .unchanged("\(post) is already hidden") }
        return .changed("\(post) is hidden: it stays out of the site until `tomo post unhide \(post)`")
    }

    public mutating func unhidePost(_ post: PostID) -> Outcome {
        needs(.hidden)
        if !hiddenPosts.sortedRemove(post.description) { return .unchanged("\(post) is not hidden") }
        return .changed("\(post) is shown again")
    }

    private func requireLikeable(_ post: PostID, visibility: PostVisibility?) throws(Diagnostic) {
        guard let visibility else { throw Self.missingPost(post) }
        try requireOwner(of: post)
        switch visibility {
        case .public:
            break
        case .draft:
            throw Diagnostic("\(post) is a draft (draft: true), which no build publishes: only published posts can be liked")
        case .followers, .private:
            throw Diagnostic("\(post) is not public (visibility: \(visibility.rawValue)): only public posts can be liked")
        }
        if hiddenPosts.sortedSearch(post.description).found {
            throw Diagnostic("\(post) is hidden, so no page shows it: only published posts can be liked (`tomo post unhide \(post)` shows it again)")
        }
    }

    /// A post is liked or reported under its owner's handle, which must be registered now (the
    /// post file was read before the store was locked): a post in the folder of a handle no
    /// one has, or one renamed away meanwhile, would keep a like or report no page counts.
    private func requireOwner(of post: PostID) throws(Diagnostic) {
        guard users.record(for: post.handle) == nil else { return }
        throw Diagnostic("\(post) is in the posts of \(post.handle), who is not registered (renamed or removed?): give the post's id under its owner's handle, as `tomo post list` shows it")
    }

    static func missingPost(_ post: PostID) -> Diagnostic {
        Diagnostic("no post \(post): content/posts/\(post.handle)/\(post.slug).md does not exist")
    }
}
