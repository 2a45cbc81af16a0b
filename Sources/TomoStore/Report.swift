import TomoCore

/// A user's report of a post, for the site's moderators.
public struct Report: Sendable, Hashable {
    public var user: String
    public var post: String
    public var reason: String
    public var created: String

    public init(user: String, post: String, reason: String, created: String) {
        self.user = user
        self.post = post
        self.reason = reason
        self.created = created
    }
}

extension Report {
    /// Whether `reason` says something: `tomo report` refuses one that is only blanks.
    public static func hasReason(_ reason: String) -> Bool { !reason.trimmingWhitespace().isEmpty }
}
