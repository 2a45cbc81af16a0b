import Foundation
import TomoContent

/// Profile items with `from`/`until` change a profile page at a moment, without any file
/// changing. `tomo build` keeps the next such moment and builds again whole after it;
/// `tomo serve` rebuilds at it.
enum TimedItems {
    /// The first moment after `date` at which an item of some profile appears or disappears.
    static func nextChange(after date: Date, in content: SiteContent) -> Date? {
        let moments = content.profiles.lazy.flatMap(\.items).flatMap { [$0.from, $0.until] }.compactMap { $0 }
        return moments.filter { $0 > date }.min()
    }

    /// The users whose profile page shows other items at `date` than at `earlier`.
    static func profilesChanged(between earlier: Date, and date: Date, in content: SiteContent) -> [String] {
        content.profiles.filter { profile in
            profile.items.contains { $0.isShown(at: earlier) != $0.isShown(at: date) }
        }.map(\.handle)
    }
}
