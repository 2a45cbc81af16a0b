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
