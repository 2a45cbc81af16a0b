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

    /// Drops the likes, reports and hidden marks of every post whose id `matches`.
    mutating func forgetPosts(where matches: (String) -> Bool) {
        needs(.likes, .reports, .hidden)
        likes.removeAll { matches($0.post) }
        reports.removeAll { matches($0.post) }
        hiddenPosts.removeAll { matches($0) }
    }
}
