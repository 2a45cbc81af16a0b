import TomoCore

/// Reads `store.json` into a `Store`. Problems come back as `content/store.json:line:column: …`;
/// a store written by a newer tomo is refused; an older one is migrated while it is read
/// (`StoreMigration`; written in the current format only when a command changes something).
public enum StoreDecoder {
    typealias Failure = StoreReader.Failure

    /// Decodes the parts in `sections` (users always) and keeps the others as checked bytes.
    public static func decode(_ bytes: [UInt8], file: String, sections: Set<StoreSection> = Set(StoreSection.allCases)) throws(Diagnostic) -> Store {
        try decode(bytes, file: file, sections: sections, notingPlaces: false).store
    }

    /// The whole store and where each of its records is, with whom and what it names: for
    /// `tomo check` (`StoreAudit`), which reports a record at its line and column.
    static func decodeWithPlaces(_ bytes: [UInt8], file: String) throws(Diagnostic) -> (store: Store, places: [StoreRecordPlace]) {
        let (store, places) = try decode(bytes, file: file, sections: Set(StoreSection.allCases), notingPlaces: true)
        return (store, places ?? [])
    }

    private static func decode(_ bytes: [UInt8], file: String, sections: Set<StoreSection>, notingPlaces: Bool) throws(Diagnostic) -> (store: Store, places: [StoreRecordPlace]?) {
        let wanted = sections.union([.users])
        let result: Result<Parts, Failure> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in try decodeDocument(buffer, sections: wanted, notingPlaces: notingPlaces) }
        }
        switch result {
        case .success(var parts):
            // Slices of `bytes`, not copies: a section no one reads costs no memory of its own.
            for (name, range) in parts.verbatim { parts.store.verbatim[name] = bytes[range] }
            if let index = parts.followIndex {
                parts.store.rawFollows = RawSection(file: bytes, starts: index.starts, ends: index.ends, canonicalSpacing: index.canonicalSpacing)
            }
            if let index = parts.likeIndex {
                parts.store.rawLikes = RawSection(file: bytes, starts: index.starts, ends: index.ends, canonicalSpacing: index.canonicalSpacing)
            }
            // Few requests: merged in; a pair both followed and requested stays followed, and the
            // request, seen only here (the follows may be the file's bytes), is noted.
            for request in parts.requests {
                guard parts.store.followRecord(for: request.key) != nil else {
                    parts.store.follows.upsert(request)
                    continue
                }
                parts.store.recordProblems.append(RecordProblem(
                    message: "\(request.from) asks to follow \(request.to) and follows \(request.to) already (in \"follows\"): remove this request",
                    offset: parts.requestStarts[request.key] ?? 0, dropped: DroppedRecord(kind: .follow, pair: request.key)
                ))
            }
            return (parts.store, parts.places)
        case .failure(let failure):
            // A broken document gets the JSON parser's own message; a well-formed one that does
            // not match the store's shape gets ours.
            _ = try JSONParser.parse(bytes: bytes, file: file)
            throw Diagnostic(failure.message, at: SourceLocation(ofByte: failure.offset, in: bytes, file: file))
        }
    }

    private struct Parts {
        var store: Store
        /// Where the sections the command does not read lie in the file.
        var verbatim: [String: Range<Int>] = [:]
        /// With `.followPairs`: where each accepted follow lies, when the section is in tomo's order.
        var followIndex: SectionIndex?
        /// With `.likePairs`: where each post's likes lie, when the section is in tomo's order.
        var likeIndex: SectionIndex?
        var requests: [Follow] = []
        /// Where each request's record lies.
        var requestStarts: [RecordPair: Int] = [:]
        /// With `notingPlaces`: every record's place.
        var places: [StoreRecordPlace]?
    }

    /// Where a section's records lie, for a `RawSection`.
    private struct SectionIndex {
        var starts: [Int] = []
        var ends: [Int] = []
        var canonicalSpacing = true
        /// False when the section is not in tomo's own order (then it is decoded instead).
        var usable = true

        init(capacity: Int) {
            starts.reserveCapacity(capacity)
            ends.reserveCapacity(capacity)
        }

        /// Notes a record, and whether it follows the one before as tomo writes them.
        mutating func append(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
            if let end = ends.last, !UnsafeBufferPointer(rebasing: bytes[end..<range.lowerBound]).elementsEqual(",\n    ".utf8) {
                canonicalSpacing = false
            }
            starts.append(range.lowerBound)
            ends.append(range.upperBound)
        }
    }

    static let sectionNames = ["blocks", "follows", "hidden", "lastSequence", "likes", "picks", "renames", "reports", "requests", "users", "version"]

    private static func decodeDocument(_ bytes: UnsafeBufferPointer<UInt8>, sections wanted: Set<StoreSection>, notingPlaces: Bool) throws(Failure) -> Parts {
        // Past a byte order mark (Notepad saves one), as every reader of a site's text files
        // reads; the next write leaves it out.
        var reader = StoreReader(bytes: bytes, range: ByteOrderMark.length(in: bytes)..<bytes.count)
        // First split the document into sections, so the version is known before anything else is trusted.
        var sections: [String: Range<Int>] = [:]
        try reader.expect(UInt8(ascii: "{"), "the store to be a JSON object ({ … })")
        var first = true
        while let key = try reader.nextKey(first: &first) {
            guard sectionNames.contains(key) else {
                throw reader.failure("unknown section \"\(key)\"\(Suggestion.hint(for: key, in: sectionNames)); a store has \(sectionNames.joined(separator: ", "))", at: reader.keyOffset)
            }
            // JSON leaves a repeated key to the reader: taken as the last one, a second
            // "hidden" would publish every post the first one hides.
            guard sections[key] == nil else {
                throw reader.failure("the section \"\(key)\" appears twice: merge the two into one", at: reader.keyOffset)
            }
            sections[key] = try reader.skipValue()
        }
        reader.skipWhitespace()
        if !reader.atEnd { throw reader.failure("unexpected text after the store's closing }") }

        guard let versionRange = sections["version"] else {
            throw reader.failure("the store has no \"version\": add \"version\": \(Store.currentVersion)", at: 0)
        }
        var versionReader = StoreReader(bytes: bytes, range: versionRange)
        let number = try versionReader.readNumberAsWritten()
        // Digits too many for an Int are a version from far later still.
        let tooLarge = StoreReader.isDigits(Substring(number.written)) ? Int.max : nil
        guard let version = StoreReader.wholeNumber(number.written) ?? tooLarge, version >= 1 else {
            throw versionReader.failure("unknown store version \(number.written): versions are whole numbers from 1 (this tomo writes \(Store.currentVersion))", at: versionRange.lowerBound)
        }
        if version > Store.currentVersion {
            throw versionReader.failure(
                "this store was written by a newer tomo (store version \(number.written); this tomo reads versions up to \(Store.currentVersion)): upgrade tomo; the store is left as it is",
                at: versionRange.lowerBound
            )
        }
        var parts = Parts(store: Store())
        parts.store.loaded = wanted
        let followsWanted = wanted.contains(.follows) || wanted.contains(.followPairs)
        for part in StoreSection.allCases where !wanted.contains(part) {
            if followsWanted && (part == .follows || part == .followPairs) { continue }
            if (wanted.contains(.likes) || wanted.contains(.likePairs)) && (part == .likes || part == .likePairs) { continue }
            for name in part.fileSections {
                if let range = sections[name] { parts.verbatim[name] = range }
            }
        }
        func section(_ name: String) -> StoreReader? {
            sections[name].map { StoreReader(bytes: bytes, range: $0) }
        }
        var places: [StoreRecordPlace]? = notingPlaces ? [] : nil
        var problems: [RecordProblem] = []
        if var r = section("users") { parts.store.users = try decodeUsers(&r, version: version, places: &places, problems: &problems) }
        parts.store.highestSequence = parts.store.users.lazy.map(\.sequence).max() ?? 0
        if var r = section("lastSequence") {
            let start = r.position
            let number = try r.readNumberAsWritten()
            guard let last = StoreReader.wholeNumber(number.written), (1...User.maximumSequence).contains(last) else {
                throw r.failure("\"lastSequence\" is the highest registration order given so far, a whole number from 1 to \(User.maximumSequence), not \(number.written)", at: start)
            }
            parts.store.highestSequence = max(parts.store.highestSequence, last)
        }
        if followsWanted {
            if !wanted.contains(.follows), var r = section("follows"), let index = try indexFollows(&r) {
                parts.followIndex = index
            } else if var r = section("follows") {
                var unused: [RecordPair: Int] = [:]
                parts.store.follows = try decodeFollows(&r, status: .accepted, places: &places, problems: &problems, requestStarts: &unused)
                parts.store.loaded.insert(.follows)
            }
            if var r = section("requests") {
                parts.requests = try decodeFollows(&r, status: .pending, places: &places, problems: &problems, requestStarts: &parts.requestStarts)
                parts.store.highestRequestOrder = parts.requests.lazy.map(\.order).max() ?? 0
            }
        }
        if wanted.contains(.blocks), var r = section("blocks") { parts.store.blocks = try decodeBlocks(&r, places: &places, problems: &problems) }
        if wanted.contains(.likes) || wanted.contains(.likePairs), var r = section("likes") {
            var indexReader = r
            if !wanted.contains(.likes), let index = try indexLikes(&indexReader) {
                parts.likeIndex = index
            } else {
                parts.store.likes = try decodeLikes(&r, places: &places)
                parts.store.loaded.insert(.likes)
            }
        }
        if wanted.contains(.reports), var r = section("reports") { parts.store.reports = try decodeReports(&r, places: &places, problems: &problems) }
        if wanted.contains(.picks), var r = section("picks") { parts.store.picks = try decodePicks(&r, places: &places, problems: &problems) }
        if wanted.contains(.renames), var r = section("renames") { parts.store.renames = try decodeRenames(&r, places: &places, problems: &problems) }
        if wanted.contains(.hidden), var r = section("hidden") {
            try forEachElement(&r, "an array of post ids") { r throws(Failure) in
                let start = r.position
                let post = try r.readString()
                places?.append(StoreRecordPlace(kind: .hidden, names: nil, post: post, offset: start))
                parts.store.hiddenPosts.append(post)
            }
            parts.store.hiddenPosts = Array(Set(parts.store.hiddenPosts)).sorted()
        }
        parts.places = places
        parts.store.recordProblems = problems
        return parts
    }

    // MARK: Sections

    private static func decodeUsers(_ r: inout StoreReader, version: Int, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem]) throws(Failure) -> [User] {
        var users: [User] = []
        var handles: [(handle: String, offset: Int)] = []
        let hasSequence = StoreMigration.userHasSequence(in: version)
        let keys = ["approveFollows", "created", "gender", "handle", "location", "seeking"]
            + (hasSequence ? ["sequence"] : ["name"])
        try forEachElement(&r, "an array of users") { r throws(Failure) in
            let start = r.position
            var user = User(handle: "", created: "", sequence: 0)
            try forEachMember(&r, "a user") { r, key throws(Failure) in
                switch key {
                case "handle": user.handle = try r.readString()
                case "created": user.created = try r.readString()
                case "sequence" where hasSequence:
                    let number = try r.readNumberAsWritten()
                    guard let sequence = StoreReader.wholeNumber(number.written), (1...User.maximumSequence).contains(sequence) else {
                        throw r.failure("\"sequence\" is the user's registration order, a whole number from 1 to \(User.maximumSequence), not \(number.written)", at: number.start)
                    }
                    user.sequence = sequence
                // Version 1's copy of the display name: the profile's `name` is the one that counts.
                case "name" where !hasSequence: _ = try r.readString()
                case "approveFollows": user.approveFollows = try r.readBool()
                case "gender": user.gender = try r.readOptionalString()
                case "seeking": user.seeking = try r.readOptionalString()
                case "location": user.location = try decodeLocation(&r)
                default: throw unknownKey(key, in: keys.sorted(), r)
                }
            }
            if let problem = Identifiers.handleProblem(user.handle) { throw r.failure("user: \(problem)", at: start) }
            if user.created.isEmpty { throw r.failure("user \(user.handle) has no \"created\" time", at: start) }
            if hasSequence, user.sequence == 0 {
                throw r.failure("user \(user.handle) has no \"sequence\" (its registration order): add one higher than every other user's", at: start)
            }
            noteTime(user.created, of: user.handle, at: start, in: &problems)
            for (key, word) in [("gender", user.gender), ("seeking", user.seeking)] {
                guard let word, let problem = User.wordProblem(word) else { continue }
                problems.append(RecordProblem(
                    message: "the \"\(key)\" of \(user.handle) \(problem), and `tomo user set --\(key)` takes one word of at most \(User.maximumWordLength) characters: write one (or remove the key)",
                    offset: start
                ))
            }
            places?.append(StoreRecordPlace(kind: .user, names: user.handle, post: nil, offset: start))
            users.append(user)
            handles.append((user.handle, start))
        }
        // Two records of one user would be one of them, quietly: say which.
        if let repeated = Self.firstRepeated(handles) {
            throw r.failure("user \(repeated.handle) has two records: keep one (its sequence and settings are read from one only)", at: repeated.offset)
        }
        if !hasSequence { StoreMigration.numberVersion1Users(&users) }
        users.normalizeOrder()
        return users
    }

    private static func decodeLocation(_ r: inout StoreReader) throws(Failure) -> Location? {
        if try r.readNull() { return nil }
        let start = r.position
        var latitude: Double?
        var longitude: Double?
        try forEachMember(&r, "a location {\"lat\": …, \"lon\": …}") { r, key throws(Failure) in
            switch key {
            case "lat": latitude = try r.readNumber()
            case "lon": longitude = try r.readNumber()
            default: throw unknownKey(key, in: ["lat", "lon"], r)
            }
        }
        guard let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw r.failure("a location needs \"lat\" (-90…90) and \"lon\" (-180…180)", at: start)
        }
        return Location(latitude: latitude, longitude: longitude)
    }

    /// `["from", "to", "created"]` per line: the compact record of the biggest section.
    /// `requestStarts`: for the requests, where each pair's record lies (`decode` notes there a
    /// request of a pair that follows already).
    private static func decodeFollows(
        _ r: inout StoreReader, status: FollowStatus, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem], requestStarts: inout [RecordPair: Int]
    ) throws(Failure) -> [Follow] {
        var follows: [Follow] = []
        var starts: [Int] = []
        // About 50 bytes a record: reserving up front saves copying a growing 14 MB array.
        follows.reserveCapacity((r.end - r.position) / 48)
        try forEachElement(&r, "an array of [from, to, created] records") { r throws(Failure) in
            let start = r.position
            try r.expect(UInt8(ascii: "["), "a [from, to, created] record")
            let from = try r.readString()
            try r.expect(UInt8(ascii: ","), "',' and the handle followed")
            let to = try r.readString()
            try r.expect(UInt8(ascii: ","), "',' and the time created")
            let created = try r.readString()
            try r.expect(UInt8(ascii: "]"), "']': a follow record is [from, to, created]")
            try requirePair(from, to, "follow", r, at: start)
            noteTime(created, of: status == .accepted ? "this follow" : "this request", at: start, in: &problems)
            if status == .pending { requestStarts[RecordPair(first: from, second: to)] = start }
            places?.append(StoreRecordPlace(kind: status == .accepted ? .follow : .request, names: from, and: to, post: nil, offset: start))
            var follow = Follow(from: from, to: to, status: status, created: created)
            // The file's order is the order the requests were made.
            if status == .pending { follow.order = follows.count + 1 }
            follows.append(follow)
            starts.append(start)
        }
        for (kept, keptAt, leftOut) in follows.normalizeOrder() where kept.created != leftOut.created {
            problems.append(repeated(kept.key, .follow, "\(kept.from) \(status == .accepted ? "follows" : "asks to follow") \(kept.to)", at: starts[keptAt]))
        }
        return follows
    }

    /// Checks the accepted follows and notes where each record lies, without making strings of
    /// them; nil when the section is not in tomo's own order (then it is decoded instead).
    private static func indexFollows(_ r: inout StoreReader) throws(Failure) -> SectionIndex? {
        let bytes = r.bytes
        var index = SectionIndex(capacity: (r.end - r.position) / 48)
        var previous: [Range<Int>] = []
        try forEachElement(&r, "an array of [from, to, created] records") { r throws(Failure) in
            let start = r.position
            try r.expect(UInt8(ascii: "["), "a [from, to, created] record")
            let (from, fromKind) = try r.scanString()
            try r.expect(UInt8(ascii: ","), "',' and the handle followed")
            let (to, toKind) = try r.scanString()
            try r.expect(UInt8(ascii: ","), "',' and the time created")
            let (_, createdKind) = try r.scanString()
            try r.expect(UInt8(ascii: "]"), "']': a follow record is [from, to, created]")
            if from.isEmpty || to.isEmpty { throw r.failure("this follow is missing a field", at: start) }
            // Byte order is string order only for ASCII; escapes would need decoding.
            if fromKind != .ascii || toKind != .ascii || createdKind != .ascii { index.usable = false }
            if !previous.isEmpty, !isBefore(previous, [from, to], in: bytes) { index.usable = false }
            previous = [from, to]
            index.append(start..<r.position, in: bytes)
        }
        return index.usable ? index : nil
    }

    /// The same for the likes: `"handle/slug": ["liker", …]` per record.
    private static func indexLikes(_ r: inout StoreReader) throws(Failure) -> SectionIndex? {
        let bytes = r.bytes
        var index = SectionIndex(capacity: (r.end - r.position) / 64)
        var previous: [Range<Int>] = []
        try r.expect(UInt8(ascii: "{"), "an object of post id to likers")
        var first = true
        while let (post, postKind) = try r.nextKeyRange(first: &first) {
            let start = r.keyOffset
            if postKind != .ascii { index.usable = false }
            try r.expect(UInt8(ascii: "["), "an array of handles")
            var firstLiker = true
            while try r.nextElement(first: &firstLiker) {
                let (_, likerKind) = try r.scanString()
                if likerKind != .ascii { index.usable = false }
            }
            if !previous.isEmpty, !isBefore(previous, [post], in: bytes) { index.usable = false }
            previous = [post]
            index.append(start..<r.position, in: bytes)
        }
        return index.usable ? index : nil
    }

    /// True when the record key made of the strings at `a` sorts strictly before the one at `b`.
    private static func isBefore(_ a: [Range<Int>], _ b: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for (left, right) in zip(a, b) {
            let leftBytes = UnsafeBufferPointer(rebasing: bytes[left])
            let rightBytes = UnsafeBufferPointer(rebasing: bytes[right])
            if !leftBytes.elementsEqual(rightBytes) { return leftBytes.lexicographicallyPrecedes(rightBytes) }
        }
        return false
    }

    private static func decodeBlocks(_ r: inout StoreReader, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem]) throws(Failure) -> [Block] {
        var starts: [Int] = []
        var blocks = try decodeFromTo(&r, .block, places: &places, problems: &problems, starts: &starts).map { Block(from: $0.from, to: $0.to, created: $0.created) }
        for (kept, keptAt, leftOut) in blocks.normalizeOrder() where kept.created != leftOut.created {
            problems.append(repeated(kept.key, .block, "\(kept.from) blocks \(kept.to)", at: starts[keptAt]))
        }
        return blocks
    }

    /// The problem of a record whose pair an earlier record has too, saying something else
    /// (another time, or another decision): the store keeps the later one only.
    private static func repeated(_ pair: RecordPair, _ kind: DroppedRecord.Kind, _ what: String, at offset: Int) -> RecordProblem {
        RecordProblem(
            message: "\(what) in an earlier record too, written otherwise: keep one of the two",
            offset: offset, dropped: DroppedRecord(kind: kind, pair: pair)
        )
    }

    /// Kept in the file's order: the order they were made, which is what redirects follow.
    private static func decodeRenames(_ r: inout StoreReader, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem]) throws(Failure) -> [Rename] {
        var starts: [Int] = []
        return try decodeFromTo(&r, .rename, places: &places, problems: &problems, starts: &starts)
    }

    /// `[{"created": …, "from": …, "to": …}, …]`: the blocks or the renames, as renames.
    private static func decodeFromTo(
        _ r: inout StoreReader, _ kind: StoreRecordPlace.Kind, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem], starts: inout [Int]
    ) throws(Failure) -> [Rename] {
        var records: [Rename] = []
        try forEachElement(&r, "an array of \(kind.rawValue)s") { r throws(Failure) in
            let start = r.position
            var record = Rename(from: "", to: "", created: "")
            try forEachMember(&r, "a \(kind.rawValue)") { r, key throws(Failure) in
                switch key {
                case "from": record.from = try r.readString()
                case "to": record.to = try r.readString()
                case "created": record.created = try r.readString()
                default: throw unknownKey(key, in: ["created", "from", "to"], r)
                }
            }
            try requirePair(record.from, record.to, kind.rawValue, r, at: start)
            noteTime(record.created, of: "this \(kind.rawValue)", at: start, in: &problems)
            places?.append(StoreRecordPlace(kind: kind, names: record.from, and: record.to, post: nil, offset: start))
            records.append(record)
            starts.append(start)
        }
        return records
    }

    private static func decodePicks(_ r: inout StoreReader, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem]) throws(Failure) -> [Pick] {
        var picks: [Pick] = []
        var starts: [Int] = []
        // Each pair's first decision: a second record that says otherwise would win unseen.
        var decisions: [RecordPair: PickDecision] = [:]
        try forEachElement(&r, "an array of picks") { r throws(Failure) in
            let start = r.position
            var pick = Pick(from: "", to: "", decision: .accept, created: "")
            try forEachMember(&r, "a pick") { r, key throws(Failure) in
                switch key {
                case "from": pick.from = try r.readString()
                case "to": pick.to = try r.readString()
                case "created": pick.created = try r.readString()
                case "decision":
                    let offset = r.position
                    let text = try r.readString()
                    guard let decision = PickDecision(rawValue: text) else {
                        throw r.failure("pick decision \"\(text)\" is not accept or reject\(Suggestion.hint(for: text, in: PickDecision.allCases.map(\.rawValue)))", at: offset)
                    }
                    pick.decision = decision
                default: throw unknownKey(key, in: ["created", "decision", "from", "to"], r)
                }
            }
            try requirePair(pick.from, pick.to, "pick", r, at: start)
            noteTime(pick.created, of: "this pick", at: start, in: &problems)
            if let first = decisions.updateValue(pick.decision, forKey: pick.key), first != pick.decision {
                problems.append(RecordProblem(
                    message: "\(pick.from) picked \(pick.to) in an earlier record too, with the other decision: keep one of the two (one pick a pair): delete one, or keep the earlier one with `tomo pick \(pick.from) \(pick.to) \(first.rawValue)`",
                    offset: start, dropped: DroppedRecord(kind: .pick, pair: pick.key)
                ))
            }
            places?.append(StoreRecordPlace(kind: .pick, names: pick.from, and: pick.to, post: nil, offset: start))
            picks.append(pick)
            starts.append(start)
        }
        // Another decision is told above; the same one at another time here.
        for (kept, keptAt, leftOut) in picks.normalizeOrder() where kept.decision == leftOut.decision && kept.created != leftOut.created {
            problems.append(repeated(kept.key, .pick, "\(kept.from) picked \(kept.to)", at: starts[keptAt]))
        }
        return picks
    }

    private static func decodeReports(_ r: inout StoreReader, places: inout [StoreRecordPlace]?, problems: inout [RecordProblem]) throws(Failure) -> [Report] {
        var reports: [Report] = []
        var reported = Set<RecordPair>()
        try forEachElement(&r, "an array of reports") { r throws(Failure) in
            let start = r.position
            var report = Report(user: "", post: "", reason: "", created: "")
            try forEachMember(&r, "a report") { r, key throws(Failure) in
                switch key {
                case "user": report.user = try r.readString()
                case "post": report.post = try r.readString()
                case "reason": report.reason = try r.readString()
                case "created": report.created = try r.readString()
                default: throw unknownKey(key, in: ["created", "post", "reason", "user"], r)
                }
            }
            try requirePair(report.user, report.post, "report", r, at: start)
            noteTime(report.created, of: "this report of \(report.post)", at: start, in: &problems)
            if !Report.hasReason(report.reason) {
                problems.append(RecordProblem(
                    message: "this report of \(report.post) has an empty \"reason\": write what is wrong with the post, as `tomo report --reason` asks (or remove the record)",
                    offset: start
                ))
            }
            if !reported.insert(RecordPair(first: report.user, second: report.post)).inserted {
                problems.append(RecordProblem(
                    message: "\(report.user) reported \(report.post) in an earlier record too: keep one of the two (one report per user and post; `tomo report` replaces its reason)",
                    offset: start
                ))
            }
            places?.append(StoreRecordPlace(kind: .report, names: report.user, post: report.post, offset: start))
            reports.append(report)
        }
        return reports
    }

    /// `{"alice/sunset": ["bob", "carol"], …}`: a post's likers on one line.
    private static func decodeLikes(_ r: inout StoreReader, places: inout [StoreRecordPlace]?) throws(Failure) -> [PostLikes] {
        var likes: [PostLikes] = []
        try forEachMember(&r, "an object of post id to likers") { r, post throws(Failure) in
            var users: [String] = []
            var sorted = true
            try forEachElement(&r, "an array of handles") { r throws(Failure) in
                let start = r.position
                let handle = try r.readString()
                places?.append(StoreRecordPlace(kind: .like, names: handle, post: post, offset: start))
                if let last = users.last, !(last < handle) { sorted = false }
                users.append(handle)
            }
            if !sorted { users = Array(Set(users)).sorted() }
            if !users.isEmpty { likes.append(PostLikes(post: post, users: users)) }
        }
        likes.normalizeOrder()
        return likes
    }

    // MARK: Helpers

    /// Notes a `created` that is no store time as tomo writes one.
    private static func noteTime(_ created: String, of what: String, at offset: Int, in problems: inout [RecordProblem]) {
        guard let problem = Timestamp.problem(created) else { return }
        problems.append(RecordProblem(
            message: "the \"created\" of \(what), \"\(created)\", \(problem): write it as \(Timestamp.example) (UTC, with milliseconds)",
            offset: offset
        ))
    }

    /// The second record of the first handle that has two, or nil.
    private static func firstRepeated(_ handles: [(handle: String, offset: Int)]) -> (handle: String, offset: Int)? {
        var seen = Set<String>(minimumCapacity: handles.count)
        return handles.first { !seen.insert($0.handle).inserted }
    }

    private static func forEachElement(_ r: inout StoreReader, _ what: String, _ body: (inout StoreReader) throws(Failure) -> Void) throws(Failure) {
        try r.expect(UInt8(ascii: "["), what)
        var first = true
        while try r.nextElement(first: &first) { try body(&r) }
    }

    /// Each member of an object, refusing a key it repeats: JSON leaves that to the reader, and
    /// taken as the last one, a repeated key would quietly drop what the first one says (a
    /// user's `sequence`, which its feed's ids are made of; a post's likers). Objects with
    /// many keys (the likes, by post) are in order as tomo writes them, so a key is compared
    /// with the last one, and only keys out of order are looked up.
    private static func forEachMember(_ r: inout StoreReader, _ what: String, _ body: (inout StoreReader, String) throws(Failure) -> Void) throws(Failure) {
        try r.expect(UInt8(ascii: "{"), what)
        var first = true
        var keys: [String] = []
        var unordered: Set<String>?
        while let key = try r.nextKey(first: &first) {
            if let last = keys.last, !(last < key) {
                if unordered == nil { unordered = Set(keys) }
                if unordered?.insert(key).inserted == false {
                    throw r.failure("\"\(key)\" appears twice in \(what): keep one", at: r.keyOffset)
                }
            } else {
                unordered?.insert(key)
            }
            keys.append(key)
            try body(&r, key)
        }
    }

    private static func unknownKey(_ key: String, in known: [String], _ r: StoreReader) -> Failure {
        r.failure("unknown key \"\(key)\"\(Suggestion.hint(for: key, in: known)); expected \(known.joined(separator: ", "))", at: r.keyOffset)
    }

    private static func requirePair(_ first: String, _ second: String, _ what: String, _ r: StoreReader, at start: Int) throws(Failure) {
        if first.isEmpty || second.isEmpty { throw r.failure("this \(what) is missing a field", at: start) }
    }
}
