import TomoCore

/// Registering, changing, removing and renaming users.
extension Store {
    /// Registers `handle` as the newest user; a handle already registered is a no-op.
    public mutating func addUser(_ handle: String, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        needs(.users)
        if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
        if users.record(for: handle) != nil { return .unchanged("\(handle) is already registered") }
        guard highestSequence < User.maximumSequence else {
            throw Diagnostic("the store's highest user \"sequence\" is \(highestSequence): renumber the users in content/store.json from 1")
        }
        highestSequence += 1
        users.upsert(User(handle: handle, created: time, sequence: highestSequence))
        return .changed("added \(handle)")
    }

    /// Applies `change` to the user's settings (not the handle, creation time or registration order).
    public mutating func updateUser(_ handle: String, _ change: (inout User) -> Void) throws(Diagnostic) -> Outcome {
        let before = try requireUser(handle)
        var after = before
        change(&after)
        after.handle = before.handle
        after.created = before.created
        after.sequence = before.sequence
        if after == before { return .unchanged("\(handle): nothing to change") }
        users.upsert(after)
        return .changed("updated \(handle): " + Self.changes(from: before, to: after).joined(separator: ", "))
    }

    /// What differs between two versions of a user's settings, as a person would say it.
    static func changes(from before: User, to after: User) -> [String] {
        var changes: [String] = []
        if before.approveFollows != after.approveFollows { changes.append("approve follows \(after.approveFollows ? "on" : "off")") }
        if before.location != after.location {
            changes.append(after.location.map { "location \($0.latitude),\($0.longitude)" } ?? "no location")
        }
        if before.gender != after.gender { changes.append(after.gender.map { "gender \($0)" } ?? "no gender") }
        if before.seeking != after.seeking { changes.append(after.seeking.map { "seeking \($0)" } ?? "seeking no one") }
        return changes
    }

    /// Removes the user and every relation that names them: follows, blocks, likes (theirs and
    /// those on their posts), reports, picks, their hidden posts and the renames that led to
    /// their handle (their old addresses redirect nowhere, and whoever registers one of those
    /// handles, or theirs, later starts afresh).
    public mutating func removeUser(_ handle: String) throws(Diagnostic) -> Outcome {
        settleBulkInserts()
        needs(.users, .follows, .blocks, .likes, .reports, .picks, .hidden, .renames)
        _ = try requireUser(handle)
        for index in renameHistory(of: handle) { renames.remove(at: index) }
        users.remove(handle)
        let ownPrefix = PostID.ownerPrefix(handle)
        follows.removeAll { $0.from == handle || $0.to == handle }
        blocks.removeAll { $0.from == handle || $0.to == handle }
        picks.removeAll { $0.from == handle || $0.to == handle }
        reports.removeAll { $0.user == handle }
        // The hidden marks of their posts stay until the posts' files are gone
        // (`forgetHiddenMarks(of:)`): a post file left behind (a folder that could not be
        // deleted, a kill) would otherwise be published.
        forgetPosts(keepingHiddenMarks: true) { $0.hasPrefix(ownPrefix) }
        for index in likes.indices { likes[index].users.sortedRemove(handle) }
        likes.removeAll { $0.users.isEmpty }
        return .changed("removed \(handle) and every relation naming them")
    }

    /// Gives `old` the handle `new` in every record (their post ids included), and records the
    /// rename, so builds redirect `old`'s addresses to `new`'s.
    public mutating func renameUser(_ old: String, to new: String, at time: String = Timestamp.now()) throws(Diagnostic) -> Outcome {
        settleBulkInserts()
        needs(.users, .follows, .blocks, .likes, .reports, .picks, .hidden, .renames)
        var user = try requireUser(old)
        if old == new { return .unchanged("\(old) already has that handle") }
        if let problem = Identifiers.handleProblem(new) { throw Diagnostic(problem) }
        if users.record(for: new) != nil { throw Diagnostic("\(new) is already registered: choose another handle or remove \(new) first") }
        func renamed(_ handle: String) -> String { handle == old ? new : handle }
        func renamedPost(_ post: String) -> String {
            post.hasPrefix(PostID.ownerPrefix(old)) ? new + post.dropFirst(old.count) : post
        }
        users.remove(old)
        user.handle = new
        users.upsert(user)
        follows = follows.map { follow in
            // A request keeps its place among the requests.
            var renamedFollow = follow
            renamedFollow.from = renamed(follow.from)
            renamedFollow.to = renamed(follow.to)
            return renamedFollow
        }
        blocks = blocks.map { Block(from: renamed($0.from), to: renamed($0.to), created: $0.created) }
        picks = picks.map { Pick(from: renamed($0.from), to: renamed($0.to), decision: $0.decision, created: $0.created) }
        reports = reports.map { Report(user: renamed($0.user), post: renamedPost($0.post), reason: $0.reason, created: $0.created) }
        hiddenPosts = hiddenPosts.map(renamedPost).sorted()
        likes = likes.map { PostLikes(post: renamedPost($0.post), users: $0.users.map(renamed).sorted()) }
        follows.normalizeOrder()
        blocks.normalizeOrder()
        picks.normalizeOrder()
        likes.normalizeOrder()
        renames.append(Rename(from: old, to: new, created: time))
        return .changed("renamed \(old) to \(new)")
    }
}
