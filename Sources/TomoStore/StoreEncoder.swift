import TomoCore

/// Writes a `Store` in its one canonical layout: keys sorted, records in key order, one record
/// per line, so the same store always gives the same bytes and a `git diff` shows one line per
/// changed relation.
public enum StoreEncoder {
    public static func encode(_ store: Store) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 * (store.follows.count + store.users.count) + 16 * store.likes.count + 4096)
        out.append(contentsOf: "{\n".utf8)
        section("blocks", store.blocks, into: &out) { block, out in
            out.append(contentsOf: "{\"created\":".utf8); JSONWriter.appendString(block.created, to: &out)
            out.append(contentsOf: ",\"from\":".utf8); JSONWriter.appendString(block.from, to: &out)
            out.append(contentsOf: ",\"to\":".utf8); JSONWriter.appendString(block.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("follows", store.follows, into: &out) { follow, out in
            out.append(contentsOf: "{\"created\":".utf8); JSONWriter.appendString(follow.created, to: &out)
            out.append(contentsOf: ",\"from\":".utf8); JSONWriter.appendString(follow.from, to: &out)
            out.append(contentsOf: ",\"status\":\"".utf8); out.append(contentsOf: follow.status.rawValue.utf8)
            out.append(contentsOf: "\",\"to\":".utf8); JSONWriter.appendString(follow.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("hidden", store.hiddenPosts, into: &out) { post, out in JSONWriter.appendString(post, to: &out) }
        section("likes", store.likes, open: "{", close: "}", into: &out) { likes, out in
            JSONWriter.appendString(likes.post, to: &out)
            out.append(contentsOf: ": [".utf8)
            for (index, user) in likes.users.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(user, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        section("picks", store.picks, into: &out) { pick, out in
            out.append(contentsOf: "{\"created\":".utf8); JSONWriter.appendString(pick.created, to: &out)
            out.append(contentsOf: ",\"decision\":\"".utf8); out.append(contentsOf: pick.decision.rawValue.utf8)
            out.append(contentsOf: "\",\"from\":".utf8); JSONWriter.appendString(pick.from, to: &out)
            out.append(contentsOf: ",\"to\":".utf8); JSONWriter.appendString(pick.to, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("reports", store.reports, into: &out) { report, out in
            out.append(contentsOf: "{\"created\":".utf8); JSONWriter.appendString(report.created, to: &out)
            out.append(contentsOf: ",\"post\":".utf8); JSONWriter.appendString(report.post, to: &out)
            out.append(contentsOf: ",\"reason\":".utf8); JSONWriter.appendString(report.reason, to: &out)
            out.append(contentsOf: ",\"user\":".utf8); JSONWriter.appendString(report.user, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        section("users", store.users, into: &out) { user, out in appendUser(user, to: &out) }
        out.append(contentsOf: "  \"version\": \(Store.currentVersion)\n}\n".utf8)
        return out
    }

    private static func appendUser(_ user: User, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"approveFollows\":".utf8)
        out.append(contentsOf: (user.approveFollows ? "true" : "false").utf8)
        out.append(contentsOf: ",\"created\":".utf8); JSONWriter.appendString(user.created, to: &out)
        if let gender = user.gender { out.append(contentsOf: ",\"gender\":".utf8); JSONWriter.appendString(gender, to: &out) }
        out.append(contentsOf: ",\"handle\":".utf8); JSONWriter.appendString(user.handle, to: &out)
        if let location = user.location {
            out.append(contentsOf: ",\"location\":{\"lat\":".utf8); JSONWriter.appendNumber(location.latitude, to: &out)
            out.append(contentsOf: ",\"lon\":".utf8); JSONWriter.appendNumber(location.longitude, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: ",\"name\":".utf8); JSONWriter.appendString(user.name, to: &out)
        if let seeking = user.seeking { out.append(contentsOf: ",\"seeking\":".utf8); JSONWriter.appendString(seeking, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// `  "name": [` + one record per line + `  ],`
    private static func section<Record>(
        _ name: String, _ records: [Record], open: Character = "[", close: Character = "]",
        into out: inout [UInt8], _ appendRecord: (Record, inout [UInt8]) -> Void
    ) {
        out.append(contentsOf: "  \"\(name)\": \(open)".utf8)
        for (index, record) in records.enumerated() {
            out.append(contentsOf: index == 0 ? "\n    ".utf8 : ",\n    ".utf8)
            appendRecord(record, &out)
        }
        out.append(contentsOf: (records.isEmpty ? "\(close),\n" : "\n  \(close),\n").utf8)
    }
}
