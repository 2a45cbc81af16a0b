import TomoCore

/// One `tomo user rename`: the user known as `from` became `to` at `created`. The store keeps
/// these in the order they were made, so later builds can publish redirects from the old
/// addresses (a handle's whole path, through every later rename) to the user's pages.
public struct Rename: Sendable, Hashable {
    public var from: String
    public var to: String
    public var created: String

    public init(from: String, to: String, created: String) {
        self.from = from
        self.to = to
        self.created = created
    }
}

/// Following the recorded renames. Only their order counts (a record is where it is in the
/// list, not its time): each walk moves one way through the list, so it ends, whatever a hand
/// edit made of the records.
extension Store {
    /// Every handle a user left, with the handle its last holder has now: a→b then b→c gives
    /// a → c and b → c; a→b then b→a gives b → a and nothing for a. A handle that is registered
    /// again, or that `taken` says has pages of its own, has none. A record that names
    /// something that is no handle (a hand edit, which `tomo check` reports) is left out: the
    /// handles become paths of the site.
    public func renamedHandles(taken: (String) -> Bool) -> [String: String] {
        needs(.users, .renames)
        var departures: [String: [Int]] = [:]
        for (index, rename) in renames.enumerated()
        where rename.from != rename.to && Identifiers.handleProblem(rename.from) == nil && Identifiers.handleProblem(rename.to) == nil {
            departures[rename.from, default: []].append(index)
        }
        var result: [String: String] = [:]
        for (old, indices) in departures where users.record(for: old) == nil && !taken(old) {
            guard var position = indices.last else { continue }
            var handle = renames[position].to
            // The next time the holder of `handle` left it, after they came to it.
            while let next = departures[handle]?.first(where: { $0 > position }) {
                position = next
                handle = renames[next].to
            }
            if handle != old { result[old] = handle }
        }
        return result
    }

    /// The records that led the current holder of `handle` to it, newest first: the rename to
    /// `handle`, the one to the handle before, and so on, back to where they registered (a
    /// handle that someone left after the rename to it was registered afresh).
    func renameHistory(of handle: String) -> [Int] {
        needs(.renames)
        var history: [Int] = []
        var handle = handle
        var position = renames.endIndex
        while let arrival = renames[..<position].lastIndex(where: { $0.to == handle }),
              !renames[(arrival + 1)..<position].contains(where: { $0.from == handle }) {
            history.append(arrival)
            handle = renames[arrival].from
            position = arrival
        }
        return history
    }
}
