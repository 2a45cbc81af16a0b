import TomoCore

/// The social graph of one site: users, follows and follow requests, blocks, likes, reports,
/// picks and hidden posts. Changed only through the rule methods (which keep every array sorted
/// and every rule of the design), read through the queries, saved by `StoreFile`.
public struct Store: Sendable, Hashable {
    /// The format version this build writes; a newer one is refused, older ones are migrated.
    public static let currentVersion = 1

    /// Sorted by handle.
    public internal(set) var users: [User] = []
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

    public init() {}

    /// The user, or a refusal that names the closest registered handle.
    public func requireUser(_ handle: String) throws(Diagnostic) -> User {
        if let user = users.record(for: handle) { return user }
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
        let hint = Suggestion.hint(for: handle, in: users.lazy.map(\.handle))
        throw Diagnostic("unknown user \"\(handle)\"\(hint): register them with `tomo user add \(handle)`")
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
