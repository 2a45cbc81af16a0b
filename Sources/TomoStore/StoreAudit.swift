import TomoCore

/// Where one record of `store.json` is, and whom and what it names.
struct StoreRecordPlace: Sendable, Hashable {
    enum Kind: String, Sendable {
        case user, follow, request, block, like, report, pick, hidden, rename
    }

    var kind: Kind
    /// The handle it names (a user's own, from, the liker, the reporter), and the second one of
    /// a pair (to).
    var first: String?
    var second: String?
    var post: String?
    /// The byte where the record (a like: the liker) starts.
    var offset: Int

    /// Two strings a record, not an array: a 700,000-record store makes as many places.
    init(kind: Kind, names first: String?, and second: String? = nil, post: String?, offset: Int) {
        self.kind = kind
        self.first = first
        self.second = second
        self.post = post
        self.offset = offset
    }

    var handles: [String] { [first, second].compactMap { $0 } }

    /// "this follow", "this like of alice/sunset": the record, in a message.
    var what: String { post.map { "this \(kind.rawValue) of \($0)" } ?? "this \(kind.rawValue)" }
}

/// What `tomo check` finds wrong between the store and the content, each at its place:
///
/// - errors, in `store.json`: a relation (follow, request, block, like, report, pick) naming a
///   user who is not registered, a follow, request, block or pick of a user by themselves, a
///   post id that is not `<handle>/<slug>`, a follow or request between users in a block, a
///   rename naming something that is not a handle or giving a user the handle they had, two
///   users with one `sequence`, and what the decoder noted of the records themselves
///   (`RecordProblem`: a `created` that is no store time, a value a command refuses, a record
///   contradicting an earlier one of its pair). Only a hand edit makes these; pages would count
///   them.
/// - warnings: a registration without a profile (no page is built for them; their relations
///   are left off the pages), a like, report or hidden mark of a post that does not exist (it
///   shows nowhere: left behind by a post file deleted by hand), and, once the site has a
///   store, a profile that is not registered (its page is built, but follows, likes and
///   `tomo post add` refuse the user). When both of the first and the last kind exist, each
///   names the `tomo user rename` that finishes what a rename stopped half way left.
enum StoreAudit {
    /// - Parameters:
    ///   - profiles: handle → the profile file (`content/users/<handle>.yaml`), every profile file
    ///     whether it loaded or not.
    ///   - postExists: whether `content/posts/<handle>/<slug>.md` exists for a post id.
    static func problems(
        in bytes: [UInt8], file: String, profiles: [String: String], postExists: (PostID) -> Bool
    ) throws(Diagnostic) -> [Diagnostic] {
        let (store, places) = try StoreDecoder.decodeWithPlaces(bytes, file: file)
        let lines = LineStarts(bytes)
        var problems: [Diagnostic] = []
        func report(_ message: String, at offset: Int, severity: Diagnostic.Severity = .error) {
            problems.append(Diagnostic(message, at: lines.location(ofByte: offset, in: bytes, file: file), severity: severity))
        }
        let registered = Set(store.users.map(\.handle))
        let rename = InterruptedRenames(registered: registered, profiles: Set(profiles.keys))
        // Each handle with the unregistered handles renamed to it: a record of NEW/slug whose
        // post is still at OLD/slug was left by a rename stopped half way, and is right.
        let renamedFrom = Dictionary(grouping: store.renamedHandles { _ in false }, by: \.value).mapValues { $0.map(\.key).sorted() }
        func leftBehind(_ id: PostID) -> String {
            guard let old = renamedFrom[id.handle]?.first(where: { postExists(PostID(handle: $0, slug: id.slug)) }) else { return "" }
            return " (it is still at \(old)/\(id.slug): if `tomo user rename \(old) \(id.handle)` was stopped half way, run it again to finish it)"
        }
        /// Each post's answer, found once: a store names the same post in many records.
        enum PostStatus { case exists, missing(PostID), invalid(String) }
        var posts: [String: PostStatus] = [:]
        /// The likes of each post that is gone: one warning a post, not one a like.
        var likesOfMissingPosts: [String: (offset: Int, likers: [String])] = [:]
        /// Each registration order's first holder: a second one would share their feed ids.
        var sequences: [Int: String] = [:]
        for place in places {
            if place.kind == .user, let handle = place.first, let sequence = store.user(handle)?.sequence, sequence > 0 {
                if let first = sequences[sequence], first != handle {
                    report("\(handle) has the \"sequence\" \(sequence) of \(first) too, and their feeds would give the same ids: give \(handle) one higher than every other user's", at: place.offset)
                } else {
                    sequences[sequence] = handle
                }
            }
            if place.kind == .user, let handle = place.first {
                if profiles[handle] == nil {
                    report("\(handle) is registered but has no profile, so no page is built for them\(rename.hint(to: handle)): `tomo user add \(handle)` writes a starter profile (or `tomo user rm \(handle) --yes` removes them)", at: place.offset, severity: .warning)
                }
                continue
            }
            for message in nameErrors(of: place, registered: registered) { report(message, at: place.offset) }
            if let message = blockErrors(of: place, in: store) { report(message, at: place.offset) }
            guard place.kind != .rename, let post = place.post else { continue }
            let status: PostStatus
            if let known = posts[post] {
                status = known
            } else {
                do {
                    let id = try PostID(parsing: post)
                    status = postExists(id) ? .exists : .missing(id)
                } catch {
                    status = .invalid(error.message)
                }
                posts[post] = status
            }
            switch status {
            case .exists: continue
            case .invalid(let problem): report("\(place.what): \(problem)", at: place.offset)
            case .missing where place.kind == .like:
                likesOfMissingPosts[post, default: (place.offset, [])].likers.append(place.first ?? "")
            case .missing(let id):
                // After a rename stopped half way the post is still under the old handle: the
                // record is right, and is kept until the rename is finished.
                let interrupted = leftBehind(id)
                let fix = if !interrupted.isEmpty {
                    "keep it"
                } else if place.kind == .hidden, !registered.contains(id.handle) {
                    // What a `tomo user rm` stopped after the files went leaves: it finishes.
                    "if `tomo user rm \(id.handle) --yes` was stopped half way, run it again to finish it (or remove the mark with `tomo post unhide \(post)`)"
                } else if place.kind == .hidden {
                    "remove it with `tomo post unhide \(post)`"
                } else {
                    "remove the record from the store"
                }
                report("\(place.what): \(Self.missing(id))\(interrupted): \(fix)", at: place.offset, severity: .warning)
            }
        }
        for problem in store.recordProblems { report(problem.message, at: problem.offset) }
        for (post, likes) in likesOfMissingPosts {
            guard let id = try? PostID(parsing: post) else { continue }
            let count = likes.likers.count == 1 ? "the like" : "the \(Plural.count(likes.likers.count, "like"))"
            let interrupted = leftBehind(id)
            guard interrupted.isEmpty else {
                report("\(count) of \(post): \(Self.missing(id))\(interrupted): keep \(likes.likers.count == 1 ? "it" : "them")", at: likes.offset, severity: .warning)
                continue
            }
            report("\(count) of \(post): \(Self.missing(id)): remove \(likes.likers.count == 1 ? "it" : "them") with `tomo unlike \(likes.likers.count == 1 ? likes.likers[0] : "USER") \(post)` (by \(likes.likers.joined(separator: ", ")))", at: likes.offset, severity: .warning)
        }
        for (handle, profile) in profiles.sorted(by: { $0.key < $1.key }) where !registered.contains(handle) {
            problems.append(Diagnostic(
                "\(handle) has a profile but is not registered in \(file)\(rename.hint(from: handle)): follows, likes and `tomo post add` refuse them; register them with `tomo user add \(handle)` (or delete their files with `tomo user rm \(handle) --yes`)",
                at: SourceLocation(file: profile, line: 1, column: 1), severity: .warning
            ))
        }
        return problems
    }

    /// The errors of the handles a record (not a user's) names: a relation naming someone not
    /// registered or its own user twice, a rename of something that is no handle or to the
    /// handle it had. `hasErrors` tests every store a build reads by the same rules.
    private static func nameErrors(of place: StoreRecordPlace, registered: Set<String>) -> [String] {
        var messages: [String] = []
        if place.kind == .rename {
            // Its handles are old ones, mostly no one's now: they need only be handles.
            for problem in place.handles.compactMap(Identifiers.handleProblem) {
                messages.append("this rename: \(problem): correct the handle or remove the record")
            }
            if let from = place.first, place.second == from {
                messages.append("this rename gives \(from) the handle they had: remove the record")
            }
            return messages
        }
        for handle in [place.first, place.second == place.first ? nil : place.second].compactMap({ $0 }) where !registered.contains(handle) {
            messages.append("\(place.what) names \"\(handle)\", who is not registered\(Suggestion.hint(for: handle, in: registered)): register them with `tomo user add \(handle)` or remove the record")
        }
        if let first = place.first, place.second == first {
            messages.append("\(first) \(place.kind.rawValue)s themselves: remove this record")
        }
        return messages
    }

    /// A follow, request or like between two users in a block, either way: `tomo block` removes
    /// them both ways and `tomo follow` and `tomo like` refuse them, so only a hand edit makes
    /// one, and pages would count it (a follower of someone who blocks them, a like of their post).
    private static func blockErrors(of place: StoreRecordPlace, in store: Store) -> String? {
        switch place.kind {
        case .follow, .request:
            guard let from = place.first, let to = place.second, from != to, let block = store.block(between: to, from) else { return nil }
            let (relation, record) = place.kind == .follow ? ("follows", "follow") : ("asks to follow", "request")
            return "\(from) \(relation) \(to), but \(block.from) blocks \(block.to), and a block ends follows and requests both ways: remove this \(record) with `tomo unfollow \(from) \(to)` (or the block with `tomo unblock \(block.from) \(block.to)`)"
        case .like:
            guard let liker = place.first, let id = place.post, let post = try? PostID(parsing: id), post.handle != liker,
                  let block = store.block(between: post.handle, liker) else { return nil }
            return "\(liker) likes \(id), but \(block.from) blocks \(block.to), and a block ends likes both ways: remove this like with `tomo unlike \(liker) \(id)` (or the block with `tomo unblock \(block.from) \(block.to)`)"
        default:
            return nil
        }
    }

    /// Whether `store` breaks a rule whose breach `problems` reports as an error: the test a
    /// build makes of every store it reads (only a store that fails it is read again, noting
    /// where each record lies, for the messages). The same rules as `nameErrors` and the post
    /// ids', tested without making a message or a record for each of 200,000 follows
    /// (`CheckMatchesBuildTests` breaks each rule and expects the build to fail as check does).
    static func hasErrors(_ store: Store) -> Bool {
        // Noted as the file was read, and reported from the same list.
        if !store.recordProblems.isEmpty { return true }
        let registered = Set(store.users.map(\.handle))
        var sequences = Set<Int>()
        for user in store.users where user.sequence > 0 && !sequences.insert(user.sequence).inserted { return true }
        func pairBreaks(_ from: String, _ to: String) -> Bool { from == to || !registered.contains(from) || !registered.contains(to) }
        func isNoPost(_ post: String) -> Bool { (try? PostID(parsing: post)) == nil }
        // Few blocks, many follows: each block looks up the two follows it forbids.
        func hasFollowEitherWay(_ block: Block) -> Bool {
            store.follows.record(for: RecordPair(first: block.from, second: block.to)) != nil
                || store.follows.record(for: RecordPair(first: block.to, second: block.from)) != nil
        }
        // Each block looks up the posts of either side (one run of the sorted likes) for a
        // like by the other side.
        func hasLikeEitherWay(_ block: Block) -> Bool {
            store.decodedLikes(ofPostsOf: block.from).contains(where: { $0.users.contains(block.to) })
                || store.decodedLikes(ofPostsOf: block.to).contains(where: { $0.users.contains(block.from) })
        }
        return store.follows.contains { pairBreaks($0.from, $0.to) }
            || store.blocks.contains { pairBreaks($0.from, $0.to) || hasFollowEitherWay($0) || hasLikeEitherWay($0) }
            || store.picks.contains { pairBreaks($0.from, $0.to) }
            || store.likes.contains { likes in isNoPost(likes.post) || likes.users.contains { !registered.contains($0) } }
            || store.reports.contains { !registered.contains($0.user) || isNoPost($0.post) }
            || store.hiddenPosts.contains(where: isNoPost)
            || store.renames.contains { $0.from == $0.to || Identifiers.handleProblem($0.from) != nil || Identifiers.handleProblem($0.to) != nil }
    }

    /// Whether `problems` would give a warning: a registration without a profile, a like,
    /// report or hidden mark of a post that does not exist, or a profile that is not registered.
    /// The test a build makes (its warnings are shown as `tomo check` shows them, from
    /// `problems`), without a message or a record place for each of 100,000 likes.
    static func hasWarnings(_ store: Store, profiles: [String: String], postExists: (PostID) -> Bool) -> Bool {
        func isMissing(_ post: String) -> Bool { (try? PostID(parsing: post)).map { !postExists($0) } ?? false }
        return store.users.contains { profiles[$0.handle] == nil }
            || profiles.keys.contains { store.user($0) == nil }
            || store.likes.contains { isMissing($0.post) }
            || store.reports.contains { isMissing($0.post) }
            || store.hiddenPosts.contains(where: isMissing)
    }

    /// What a `tomo user rename OLD NEW` stopped half way leaves: NEW registered without a
    /// profile, and OLD's profile without a registration (the store is renamed first, the
    /// profile moves last). Each such pair is named in both warnings with the command that
    /// finishes it.
    private struct InterruptedRenames {
        /// Registered users without a profile (the NEW of a rename), sorted.
        var withoutProfile: [String]
        /// Profiles without a registration (the OLD of a rename), sorted.
        var withoutRegistration: [String]

        init(registered: Set<String>, profiles: Set<String>) {
            withoutProfile = registered.subtracting(profiles).sorted()
            withoutRegistration = profiles.subtracting(registered).sorted()
        }

        /// For a registered user without a profile.
        func hint(to new: String) -> String { Self.hint(old: withoutRegistration, new: [new]) }

        /// For a profile without a registration.
        func hint(from old: String) -> String { Self.hint(old: [old], new: withoutProfile) }

        private static func hint(old: [String], new: [String]) -> String {
            guard !old.isEmpty, !new.isEmpty else { return "" }
            var text = " (if `tomo user rename \(old.count == 1 ? old[0] : "OLD") \(new.count == 1 ? new[0] : "NEW")` was stopped half way, run it again to finish it"
            if old.count > 1 { text += "; OLD is one of " + old.joined(separator: ", ") }
            if new.count > 1 { text += "; NEW is one of " + new.joined(separator: ", ") }
            return text + ")"
        }
    }

    private static func missing(_ post: PostID) -> String {
        "there is no post \(post) (content/posts/\(post.handle)/\(post.slug).md), so it shows nowhere"
    }
}
