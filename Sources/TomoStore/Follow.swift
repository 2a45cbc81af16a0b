/// Whether a follow counts yet.
public enum FollowStatus: String, Sendable, Hashable, CaseIterable {
    /// Waiting for the followed user's `tomo accept`.
    case pending
    case accepted
}

/// `from` follows (or asked to follow) `to`.
public struct Follow: Sendable, Hashable {
    public var from: String
    public var to: String
    public var status: FollowStatus
    public var created: String
    /// A request's place in the order the requests were made: `tomo requests` lists one
    /// millisecond's requests (a `tomo batch`'s) by it. Read from the file's order, where the
    /// requests are written oldest first; a new request gets one more than the highest. 0 for
    /// an accepted follow.
    var order = 0

    public init(from: String, to: String, status: FollowStatus, created: String) {
        self.from = from
        self.to = to
        self.status = status
        self.created = created
    }
}

extension Follow {
    /// Oldest first: by time, then in the order made (`order`), then by requester (two requests
    /// a hand edit gave one place).
    static func isOlderRequest(_ a: Follow, _ b: Follow) -> Bool {
        if a.created != b.created { return a.created < b.created }
        if a.order != b.order { return a.order < b.order }
        return a.from != b.from ? a.from < b.from : a.to < b.to
    }
}
