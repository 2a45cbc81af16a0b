/// A record of `store.json` that no command writes, noted while the file is decoded: a
/// `created` that is no store time, a value a command refuses (an empty report reason, a gender
/// of 5,000 characters), a record that contradicts an earlier one of the same pair (a second
/// report of one post by one user, an accept and a reject pick, a request beside a follow). The
/// decoder keeps one record of each pair, so only it sees the other. Commands read such a store
/// as it is, so that they can repair it; `tomo check` reports each problem at its record, and
/// `tomo build` refuses the store (`StoreAudit`).
struct RecordProblem: Sendable, Hashable {
    /// What is wrong, and the fix.
    var message: String
    /// The byte where the record starts.
    var offset: Int
}
