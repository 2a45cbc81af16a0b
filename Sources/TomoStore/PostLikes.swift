/// Everyone who likes one post, kept together: a post's likes are one line of the store.
public struct PostLikes: Sendable, Hashable {
    public var post: String
    /// Sorted handles.
    public var users: [String]

    public init(post: String, users: [String]) {
        self.post = post
        self.users = users
    }
}
