import TomoCore

/// Follows and follow requests. A user who approves follows gets requests that count only once
/// accepted; nobody follows across a block.
extension Store {
    public mutating func follow(_ from: String, _ to: String, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users, .blocks)
        needsFollowPairs()
        if from == to { throw Diagnostic("\(from) cannot follow themselves") }
        _ = try requireUser(from)
        let target = try requireUser(to)
        try refuseAcrossBlock(from, to, doing: "follow")
        if let existing = followRecord(for: RecordPair(first: from, second: to)) {
            switch existing.status {
            case .accepted: return .unchanged("\(from) already follows \(to)")
            case .pending where target.approveFollows:
                return .unchanged("\(from) already asked to follow \(to); it waits for `tomo accept \(to) \(from)`")
            case .pending:
                // Asked while `to` approved follows, which they no longer do: followed now, as
                // a new follow would be, instead of a request nobody is asked to accept.
                var request = existing
                request.status = .accepted
                request.order = 0
                storeFollow(request)
                return .changed("\(from) now follows \(to) (the request waiting since \(to) approved follows is accepted)")
            }
        }
        if target.approveFollows {
            var request = Follow(from: from, to: to, status: .pending, created: time)
            highestRequestOrder += 1
            request.order = highestRequestOrder
            storeFollow(request)
            return .changed("\(from) asked to follow \(to); \(to) approves follows, so it waits for `tomo accept \(to) \(from)`")
        }
        storeFollow(Follow(from: from, to: to, status: .accepted, created: time))
        return .changed("\(from) now follows \(to)")
    }

    /// Ends a follow or withdraws a request.
    public mutating func unfollow(_ from: String, _ to: String) throws(Diagnostic) -> Outcome {
        needs(.users)
        needsFollowPairs()
        _ = try requireUser(from)
        _ = try requireUser(to)
        guard let existing = followRecord(for: RecordPair(first: from, second: to)) else {
            return .unchanged("\(from) does not follow \(to)")
        }
        _ = deleteFollow(existing.key)
        return .changed(existing.status == .accepted ? "\(from) no longer follows \(to)" : "\(from) withdrew the request to follow \(to)")
    }

    /// `user` accepts `requester`'s follow request.
    public mutating func accept(_ user: String, _ requester: String) throws(Diagnostic) -> Outcome {
        needs(.users)
        needsFollowPairs()
        _ = try requireUser(user)
        _ = try requireUser(requester)
        let key = RecordPair(first: requester, second: user)
        guard var request = followRecord(for: key) else {
            throw Diagnostic("\(requester) has not asked to follow \(user): `tomo requests \(user)` lists the requests")
        }
        if request.status == .accepted { return .unchanged("\(requester) already follows \(user)") }
        request.status = .accepted
        request.order = 0
        storeFollow(request)
        return .changed("\(user) accepted \(requester): \(requester) now follows \(user)")
    }

    /// `user` declines `requester`'s follow request; with no request waiting it is a no-op.
    public mutating func decline(_ user: String, _ requester: String) throws(Diagnostic) -> Outcome {
        needs(.users)
        needsFollowPairs()
        _ = try requireUser(user)
        _ = try requireUser(requester)
        let key = RecordPair(first: requester, second: user)
        guard let request = followRecord(for: key), request.status == .pending else {
            return .unchanged("no request from \(requester) waits for \(user)")
        }
        _ = deleteFollow(key)
        return .changed("\(user) declined \(requester)'s request")
    }

    /// A refusal when either user blocks the other.
    func refuseAcrossBlock(_ actor: String, _ other: String, doing action: String) throws(Diagnostic) {
        if blocks.record(for: RecordPair(first: actor, second: other)) != nil {
            throw Diagnostic("\(actor) blocks \(other), so \(actor) cannot \(action) \(other): `tomo unblock \(actor) \(other)` first")
        }
        if blocks.record(for: RecordPair(first: other, second: actor)) != nil {
            throw Diagnostic("\(other) blocks \(actor), so \(actor) cannot \(action) \(other)")
        }
    }
}
