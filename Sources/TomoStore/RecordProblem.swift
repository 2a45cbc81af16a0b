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
    /// The pair whose other record the decoded store does not hold (it kept one of the two):
    /// a command that writes the store without changing that pair would drop the other one in
    /// silence, so it is refused (`StoreFile.update`).
    var dropped: DroppedRecord? = nil
}

/// Which pair of which kind of record a decoded store holds one record of where the file has
/// two that say different things.
struct DroppedRecord: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A follow or a request (one record a pair, whichever it is).
        case follow
        case block
        case pick
    }

    var kind: Kind
    var pair: RecordPair

    /// Whether a command that left `store` so changed the pair itself: what the store holds for
    /// it differs from `before`, and both of its users are still registered (a rename or a
    /// removal of one of them takes the pair's one record along, and says nothing of the other).
    func isChanged(in store: Store, from before: AnyHashable?) -> Bool {
        current(in: store) != before && store.user(pair.first) != nil && store.user(pair.second) != nil
    }

    /// What `store` holds for the pair now (nil: nothing), to tell whether a command changed it.
    func current(in store: Store) -> AnyHashable? {
        switch kind {
        case .follow: store.followRecord(for: pair).map(AnyHashable.init)
        case .block: store.blocks.record(for: pair).map(AnyHashable.init)
        case .pick: store.picks.record(for: pair).map(AnyHashable.init)
        }
    }
}
