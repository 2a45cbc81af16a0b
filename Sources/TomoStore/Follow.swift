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

    public init(from: String, to: String, status: FollowStatus, created: String) {
        self.from = from
        self.to = to
        self.status = status
        self.created = created
    }
}
