import TomoCore

/// The dating flow: picks, matches.
extension Store {
    public mutating func pick(_ from: String, _ to: String, _ decision: PickDecision, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks, .picks)
        if from == to { throw Diagnostic("\(from) cannot pick themselves") }
        _ = try requireUser(from)
        _ = try requireUser(to)
        try refuseAcrossBlock(from, to, doing: "pick")
        let key = RecordPair(first: from, second: to)
        if let existing = picks.record(for: key), existing.decision == decision {
            return .unchanged("\(from) already picked \(to): \(decision.rawValue)")
        }
        picks.upsert(Pick(from: from, to: to, decision: decision, created: time))
        if decision == .accept, picks.record(for: RecordPair(first: to, second: from))?.decision == .accept {
            return .changed("\(from) accepts \(to): it's a match")
        }
        return .changed("\(from) \(decision == .accept ? "accepts" : "rejects") \(to)")
    }
}
