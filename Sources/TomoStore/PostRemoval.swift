import TomoCore

/// Forgetting posts: a removed post (or a removed user's posts) leaves no like, report or
/// hidden mark behind.
extension Store {
    /// What the store holds about one post, for a confirmation message before it is removed.
    public func relations(of post: PostID) -> (likes: Int, reports: Int, hidden: Bool) {
        needs(.likes, .reports, .hidden)
        let id = post.description
        return (likeCount(id), reports.count(where: { $0.post == id }), isHidden(id))
    }

    /// Removes every like, report and hidden mark of `post`.
    public mutating func removePost(_ post: PostID) -> Outcome {
        settleBulkInserts()
        let (likes, reports, hidden) = relations(of: post)
        if likes == 0 && reports == 0 && !hidden { return .unchanged("the store names \(post) nowhere") }
        forgetPosts { $0 == post.description }
        let parts = [
            likes > 0 ? Plural.count(likes, "like") : nil,
            reports > 0 ? Plural.count(reports, "report") : nil,
            hidden ? "its hidden mark" : nil,
        ].compactMap { $0 }
        let listed = parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "") : parts.joined()
        return .changed("\(post): removed \(listed) from the store")
    }

    /// Drops the likes, reports and, unless `keepingHiddenMarks`, hidden marks of every post
    /// whose id `matches`.
    mutating func forgetPosts(keepingHiddenMarks: Bool = false, where matches: (String) -> Bool) {
        needs(.likes, .reports, .hidden)
        likes.removeAll { matches($0.post) }
        reports.removeAll { matches($0.post) }
        if !keepingHiddenMarks { hiddenPosts.removeAll { matches($0) } }
    }

    /// The hidden marks of `handle`'s posts that `removeUser` left, for the command to drop
    /// once their files are gone; none while `handle` is registered (someone holds it again).
    public func hiddenMarksLeft(by handle: String) -> Int {
        needs(.users, .hidden)
        guard users.record(for: handle) == nil else { return 0 }
        let ownPrefix = PostID.ownerPrefix(handle)
        return hiddenPosts.count { $0.hasPrefix(ownPrefix) }
    }

    /// Drops the hidden marks of `handle`'s posts that have no file any more (`postExists`):
    /// those `removeUser` left once the files are gone, and any a removal stopped half way
    /// left, which would otherwise hide a new post of the same name by whoever holds the
    /// handle next.
    public mutating func forgetHiddenMarks(of handle: String, postExists: (PostID) -> Bool) -> Outcome {
        settleBulkInserts()
        needs(.hidden)
        let ownPrefix = PostID.ownerPrefix(handle)
        let gone = hiddenPosts.filter { id in
            id.hasPrefix(ownPrefix) && !postExists(PostID(handle: handle, slug: String(id.dropFirst(ownPrefix.count))))
        }
        guard !gone.isEmpty else { return .unchanged("the store keeps no hidden mark of a post of \(handle)'s that is gone") }
        hiddenPosts.removeAll { gone.contains($0) }
        return .changed("removed the \(Plural.count(gone.count, "hidden mark")) of \(handle)'s posts that are gone from the store")
    }
}
