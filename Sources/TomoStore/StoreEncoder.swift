import TomoCore

/// Writes a `Store` in its one canonical layout: keys sorted, records in key order, one record
/// per line, so the same store always gives the same bytes and a `git diff` shows one line per
/// changed relation.
public enum StoreEncoder {
    public static func encode(_ store: Store) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 * (store.follows.count + store.users.count) + 16 * store.likes.count + 4096)
        out.append(contentsOf: "{\n".utf8)
        section("blocks", store.blocks, of: store, into: &out) { block, out in
            out.append(contentsOf: "{\"created\":".utf8); appendString(block.created, to: &out)
            out.append(contentsOf: ",\"from\":".utf8); appendString(block.from, to: &out)
            out.append(contentsOf: ",\"to\":".utf8); appendString(block.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("follows", store.follows.lazy.filter { $0.status == .accepted }, of: store, into: &out, appendFollow)
        section("hidden", store.hiddenPosts, of: store, into: &out) { post, out in appendString(post, to: &out) }
        section("likes", store.likes, open: "{", close: "}", of: store, into: &out) { likes, out in
            appendString(likes.post, to: &out)
            out.append(contentsOf: ": [".utf8)
            for (index, user) in likes.users.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(user, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        section("picks", store.picks, of: store, into: &out) { pick, out in
            out.append(contentsOf: "{\"created\":".utf8); appendString(pick.created, to: &out)
            out.append(contentsOf: ",\"decision\":\"".utf8); out.append(contentsOf: pick.decision.rawValue.utf8)
            out.append(contentsOf: "\",\"from\":".utf8); appendString(pick.from, to: &out)
            out.append(contentsOf: ",\"to\":".utf8); appendString(pick.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("reports", store.reports, of: store, into: &out) { report, out in
            out.append(contentsOf: "{\"created\":".utf8); appendString(report.created, to: &out)
            out.append(contentsOf: ",\"post\":".utf8); appendString(report.post, to: &out)
            out.append(contentsOf: ",\"reason\":".utf8); appendString(report.reason, to: &out)
            out.append(contentsOf: ",\"user\":".utf8); appendString(report.user, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("requests", store.follows.lazy.filter { $0.status == .pending }, of: store, into: &out, appendFollow)
        section("users", store.users, of: store, into: &out) { user, out in appendUser(user, to: &out) }
        out.append(contentsOf: "  \"version\": \(Store.currentVersion)\n}\n".utf8)
        return out
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
            bytes.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        guard plain else { return JSONWriter.appendString(text, to: &out) }
        out.append(UInt8(ascii: "\""))
        text.withUTF8 { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
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
        out.append(contentsOf: ",\"name\":".utf8); appendString(user.name, to: &out)
        if let seeking = user.seeking { out.append(contentsOf: ",\"seeking\":".utf8); appendString(seeking, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// `  "name": [` + one record per line + `  ],`, or the section's bytes as they were read
    /// when the command did not decode it.
    private static func section<Records: Sequence>(
        _ name: String, _ records: Records, open: Character = "[", close: Character = "]",
        of store: Store, into out: inout [UInt8], _ appendRecord: (Records.Element, inout [UInt8]) -> Void
    ) {
        out.append(contentsOf: "  \"\(name)\": ".utf8)
        if let bytes = store.verbatim[name] {
            out.append(contentsOf: bytes)
            out.append(contentsOf: ",\n".utf8)
            return
        }
        out.append(contentsOf: String(open).utf8)
        var isEmpty = true
        for record in records {
            out.append(contentsOf: isEmpty ? "\n    ".utf8 : ",\n    ".utf8)
            appendRecord(record, &out)
            isEmpty = false
        }
        out.append(contentsOf: (isEmpty ? "\(close),\n" : "\n  \(close),\n").utf8)
    }
}
