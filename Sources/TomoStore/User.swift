/// A registered user. The times of every record of the store (`created`) are `Timestamp`s:
/// ISO 8601 UTC strings with milliseconds (`2026-11-30T12:34:56.789Z`), readable in a diff, and
/// they sort in time order as text.
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

extension User {
    /// The most characters a `gender` or `seeking` word has: `tomo user set` refuses a longer one.
    public static let maximumWordLength = 40

    /// Why `word` cannot be a `gender` or `seeking` as `tomo user set` writes one (one word of 1
    /// to `maximumWordLength` characters), or nil when it can: `tomo discover` compares them whole.
    public static func wordProblem(_ word: String) -> String? {
        if word.isEmpty { return "is empty" }
        if word.contains(where: \.isWhitespace) { return "is more than one word" }
        if word.count > maximumWordLength { return "has \(word.count) characters" }
        return nil
    }
}
