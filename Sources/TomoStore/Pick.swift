/// A user's answer to another in the dating flow.
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
