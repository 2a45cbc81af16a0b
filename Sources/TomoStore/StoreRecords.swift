/// The records the store keeps. Times are ISO 8601 UTC strings with milliseconds
/// (`2026-11-30T12:34:56.789Z`): readable in a diff, and they sort in time order as text.

public struct User: Sendable, Hashable {
    public var handle: String
    public var created: String
    /// Registration order: higher is registered later. "Newest first" sorts by it, never by
    /// `created`, so users registered in the same millisecond keep the order they were added in.
    /// The display name is not here: the profile's `name` is the only one.
    public var sequence: Int
    /// Like a private account: follows wait in `requests` until accepted.
    public var approveFollows: Bool
    /// The dating fields: private, never published.
    public var location: Location?
    public var gender: String?
    public var seeking: String?

    public init(handle: String, created: String, sequence: Int, approveFollows: Bool = false,
                location: Location? = nil, gender: String? = nil, seeking: String? = nil) {
        self.handle = handle
        self.created = created
        self.sequence = sequence
        self.approveFollows = approveFollows
        self.location = location
        self.gender = gender
        self.seeking = seeking
    }
}

extension User {
    /// The largest `sequence` a store holds: every whole number up to it is exact in a JSON
    /// number read as a double, as other tools read the file.
    public static let maximumSequence = 1 << 53

}

public struct Location: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

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

/// `from` blocks `to`.
public struct Block: Sendable, Hashable {
    public var from: String
    public var to: String
    public var created: String

    public init(from: String, to: String, created: String) {
        self.from = from
        self.to = to
        self.created = created
    }
}

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

public enum PickDecision: String, Sendable, Hashable, CaseIterable {
    case accept
    case reject
}

/// `from` picked `to` in the dating flow.
public struct Pick: Sendable, Hashable {
    public var from: String
    public var to: String
    public var decision: PickDecision
    public var created: String

    public init(from: String, to: String, decision: PickDecision, created: String) {
        self.from = from
        self.to = to
        self.decision = decision
        self.created = created
    }
}
