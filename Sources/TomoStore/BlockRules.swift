import TomoCore

/// Blocks: they end follows, requests and likes both ways (B's likes of A's posts and A's of
/// B's) and keep them from coming back.
extension Store {
    public mutating func block(_ from: String, _ to: String, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks)
        needsFollowPairs()
        needsLikePairs()
        if from == to { throw Diagnostic("\(from) cannot block themselves") }
        _ = try requireUser(from)
        _ = try requireUser(to)
        if blocks.record(for: RecordPair(first: from, second: to)) != nil { return .unchanged("\(from) already blocks \(to)") }
        blocks.upsert(Block(from: from, to: to, created: time))
        let follows = [RecordPair(first: from, second: to), RecordPair(first: to, second: from)].filter { deleteFollow($0) }.count
        let likes = removeLikes(by: to, ofPostsOf: from) + removeLikes(by: from, ofPostsOf: to)
        let removed = [
            follows == 0 ? nil : "\(Plural.count(follows, "follow")) or \(Plural.noun(follows, "request"))",
            likes == 0 ? nil : Plural.count(likes, "like"),
        ].compactMap { $0 }
        let detail = removed.isEmpty ? "" : " (removed \(removed.joined(separator: " and ")) between them)"
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
