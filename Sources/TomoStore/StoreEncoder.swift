import TomoCore

/// Writes a `Store` in its one canonical layout: keys sorted, records in key order, one record
/// per line, so the same store always gives the same bytes and a `git diff` shows one line per
/// changed relation.
public enum StoreEncoder {
    /// The whole store as one array (for tests and small stores).
    public static func encode(_ store: Store) -> [UInt8] {
        var sink = ArraySink()
        encode(store, to: &sink)
        return sink.bytes
    }

    /// Hands the encoded store to `sink` in pieces of about 256 KiB, so a 20 MB store is never
    /// one buffer in memory, and the parts kept verbatim go out without being copied.
    static func encode<Sink: ByteSink>(_ store: Store, to sink: inout Sink) throws(Sink.Failure) {
        var out = ChunkedOutput(sink: sink)
        defer { sink = out.sink }
        try encode(store, into: &out)
        try out.flush()
    }

    private static func encode<Sink: ByteSink>(_ store: Store, into out: inout ChunkedOutput<Sink>) throws(Sink.Failure) {
        out.buffer.append(contentsOf: "{\n".utf8)
        try section("blocks", store.blocks, of: store, into: &out) { block, out in
            appendFromTo(created: block.created, from: block.from, to: block.to, to: &out)
        }
        if let raw = store.rawFollows {
            try merge("follows", raw, with: store.follows.lazy.filter { $0.status == .accepted }, into: &out, appendFollow)
        } else {
            try section("follows", store.follows.lazy.filter { $0.status == .accepted }, of: store, into: &out, appendFollow)
        }
        try section("hidden", store.hiddenPosts, of: store, into: &out) { post, out in appendString(post, to: &out) }
        // The order given to a user since removed is given to no one else (their feed ids would
        // be the new user's): kept only while no remaining user holds it.
        if store.highestSequence > store.users.lazy.map(\.sequence).max() ?? 0 {
            out.buffer.append(contentsOf: "  \"lastSequence\": \(store.highestSequence),\n".utf8)
        }
        if let raw = store.rawLikes {
            try merge("likes", raw, with: store.likes, open: "{", close: "}", into: &out, appendLikes)
        } else {
            try section("likes", store.likes, open: "{", close: "}", of: store, into: &out, appendLikes)
        }
        try section("picks", store.picks, of: store, into: &out) { pick, out in
            out.append(contentsOf: "{\"created\":".utf8); appendString(pick.created, to: &out)
            out.append(contentsOf: ",\"decision\":\"".utf8); out.append(contentsOf: pick.decision.rawValue.utf8)
            out.append(contentsOf: "\",\"from\":".utf8); appendString(pick.from, to: &out)
            out.append(contentsOf: ",\"to\":".utf8); appendString(pick.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        try section("renames", store.renames, of: store, into: &out) { rename, out in
            appendFromTo(created: rename.created, from: rename.from, to: rename.to, to: &out)
        }
        try section("reports", store.reports, of: store, into: &out) { report, out in
            out.append(contentsOf: "{\"created\":".utf8); appendString(report.created, to: &out)
            out.append(contentsOf: ",\"post\":".utf8); appendString(report.post, to: &out)
            out.append(contentsOf: ",\"reason\":".utf8); appendString(report.reason, to: &out)
            out.append(contentsOf: ",\"user\":".utf8); appendString(report.user, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        // Oldest first, as `tomo requests` lists them: their order is read back from the file's.
        let requests = store.follows.filter { $0.status == .pending }.sorted(by: Follow.isOlderRequest)
        try section("requests", requests, of: store, into: &out, appendFollow)
        try section("users", store.users, of: store, into: &out) { user, out in appendUser(user, to: &out) }
        out.buffer.append(contentsOf: "  \"version\": \(Store.currentVersion)\n}\n".utf8)
    }

    /// A section a command read as the file's bytes: the file's records copied in long runs,
    /// with the ones this command added or changed (`changed`, in key order) in their places.
    private static func merge<Record, Sink: ByteSink>(
        _ name: String, _ raw: RawSection<Record>, with changed: some Sequence<Record>, open: Character = "[", close: Character = "]",
        into out: inout ChunkedOutput<Sink>, _ appendRecord: (Record, inout [UInt8]) -> Void
    ) throws(Sink.Failure) {
        out.buffer.append(contentsOf: "  \"\(name)\": \(open)".utf8)
        var isFirst = true
        var copied = 0
        for record in changed {
            let position = raw.insertionIndex(of: record.key)
            try raw.appendRecords(copied..<position, to: &out, isFirst: &isFirst)
            copied = position
            out.buffer.append(contentsOf: isFirst ? "\n    ".utf8 : ",\n    ".utf8)
            isFirst = false
            appendRecord(record, &out.buffer)
        }
        try raw.appendRecords(copied..<raw.starts.count, to: &out, isFirst: &isFirst)
        out.buffer.append(contentsOf: (isFirst ? "\(close),\n" : "\n  \(close),\n").utf8)
    }

    /// `{"created":…,"from":…,"to":…}`: a block or a rename.
    private static func appendFromTo(created: String, from: String, to: String, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"created\":".utf8); appendString(created, to: &out)
        out.append(contentsOf: ",\"from\":".utf8); appendString(from, to: &out)
        out.append(contentsOf: ",\"to\":".utf8); appendString(to, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `"handle/slug": ["liker",…]`
    private static func appendLikes(_ likes: PostLikes, to out: inout [UInt8]) {
        appendString(likes.post, to: &out)
        out.append(contentsOf: ": [".utf8)
        for (index, user) in likes.users.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(user, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `["from","to","created"]`: status is the section the record is in.
    private static func appendFollow(_ follow: Follow, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        appendString(follow.from, to: &out)
        out.append(UInt8(ascii: ","))
        appendString(follow.to, to: &out)
        out.append(UInt8(ascii: ","))
        appendString(follow.created, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// Most store strings (handles, ids, times) need no escaping: append them in one go.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { bytes in
            var plain = true
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                plain = false
                break
            }
            if plain {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
            }
            return plain
        }
        if !plain { JSONWriter.appendString(text, to: &out) }
    }

    private static func appendUser(_ user: User, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"approveFollows\":".utf8)
        out.append(contentsOf: (user.approveFollows ? "true" : "false").utf8)
        out.append(contentsOf: ",\"created\":".utf8); appendString(user.created, to: &out)
        if let gender = user.gender { out.append(contentsOf: ",\"gender\":".utf8); appendString(gender, to: &out) }
        out.append(contentsOf: ",\"handle\":".utf8); appendString(user.handle, to: &out)
        if let location = user.location {
            out.append(contentsOf: ",\"location\":{\"lat\":".utf8); JSONWriter.appendNumber(location.latitude, to: &out)
            out.append(contentsOf: ",\"lon\":".utf8); JSONWriter.appendNumber(location.longitude, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let seeking = user.seeking { out.append(contentsOf: ",\"seeking\":".utf8); appendString(seeking, to: &out) }
        out.append(contentsOf: ",\"sequence\":\(user.sequence)".utf8)
        out.append(UInt8(ascii: "}"))
    }

    /// `  "name": [` + one record per line + `  ],`, or the section's bytes as they were read
    /// when the command did not decode it.
    private static func section<Records: Sequence, Sink: ByteSink>(
        _ name: String, _ records: Records, open: Character = "[", close: Character = "]",
        of store: Store, into out: inout ChunkedOutput<Sink>, _ appendRecord: (Records.Element, inout [UInt8]) -> Void
    ) throws(Sink.Failure) {
        out.buffer.append(contentsOf: "  \"\(name)\": ".utf8)
        if let bytes = store.verbatim[name] {
            try out.writeDirectly(bytes)
            out.buffer.append(contentsOf: ",\n".utf8)
            return
        }
        out.buffer.append(contentsOf: String(open).utf8)
        var isEmpty = true
        for record in records {
            out.buffer.append(contentsOf: isEmpty ? "\n    ".utf8 : ",\n    ".utf8)
            appendRecord(record, &out.buffer)
            isEmpty = false
            try out.flushIfFull()
        }
        out.buffer.append(contentsOf: (isEmpty ? "\(close),\n" : "\n  \(close),\n").utf8)
    }
}
