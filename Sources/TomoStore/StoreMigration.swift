/// How a store written by an older tomo is read. Each format change is applied while the file is
/// decoded, so an old file's errors keep their own lines and columns and a big old store costs
/// no detour through a JSON tree; the store is written in the current format the first time a
/// command changes it.
///
/// - Version 1 → 2: users got `sequence`, their registration order, and lost `name` (the
///   profile's `name` is the one display name). Version 1 knew only creation times, so its
///   users are numbered as version 1 listed them newest first: by time, and within one
///   millisecond by handle (the earlier handle counted as the newer).
/// - Version 2 → 3: the `renames` section, the record of every `tomo user rename`. An older
///   store has none: the renames made before it were not recorded, so they have no redirects.
enum StoreMigration {
    /// Whether user records of `version` carry `sequence` (and no longer `name`).
    static func userHasSequence(in version: Int) -> Bool { version >= 2 }

    /// Gives version 1 users (read with sequence 0) their registration order.
    static func numberVersion1Users(_ users: inout [User]) {
        let oldestFirst = users.indices.sorted { a, b in
            users[a].created != users[b].created ? users[a].created < users[b].created : users[a].handle > users[b].handle
        }
        for (position, index) in oldestFirst.enumerated() { users[index].sequence = position + 1 }
    }
}
