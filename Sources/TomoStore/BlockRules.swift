import TomoCore

/// Blocks: they end follows and requests both ways and keep them from coming back.
extension Store {
    public mutating func block(_ from: String, _ to: String, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks)
        needsFollowPairs()
        if from == to { throw Diagnostic("\(from) cannot block themselves") }
        _ = try requireUser(from)
        _ = try requireUser(to)
        if blocks.record(for: RecordPair(first: from, second: to)) != nil { return .unchanged("\(from) already blocks \(to)") }
        blocks.upsert(Block(from: from, to: to, created: time))
        let removed = [RecordPair(first: from, second: to), RecordPair(first: to, second: from)].filter { deleteFollow($0) }.count
        let detail = removed == 0 ? "" : " (removed \(removed) follow\(removed == 1 ? "" : "s") or request\(removed == 1 ? "" : "s") between them)"
        return .changed("\(from) now blocks \(to)\(detail)")
    }

    public mutating func unblock(_ from: String, _ to: String) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks)
        _ = try requireUser(from)
        _ = try requireUser(to)
        if !blocks.remove(RecordPair(first: from, second: to)) { return .unchanged("\(from) does not block \(to)") }
        return .changed("\(from) no longer blocks \(to)")
    }
}
