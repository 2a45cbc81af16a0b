import Foundation
import TomoContent

/// Profile items with `from`/`until` change a profile page at a moment, and a post dated after
/// the build is published at its date, without any file changing (`InputFingerprints`
/// fingerprints which items show at the build date, `PublishedSite` which posts are out).
/// `tomo build` keeps the next such moment and does not stop at "nothing changed" after it;
/// `tomo serve` rebuilds at it.
enum TimedItems {
    /// The first moment after `date` at which an item of some profile appears or disappears, or
    /// a post is published.
    static func nextChange(after date: Date, in published: PublishedSite) -> Date? {
        // After every rebuild of the preview, over every item of every profile: a plain loop
        // that reads the two dates in place (a lazy chain copied each item, 100 ms at 10,000
        // users).
        var next = published.nextPost
        func consider(_ moment: Date?) {
            guard let moment, moment > date else { return }
            if next.map({ moment < $0 }) ?? true { next = moment }
        }
        for profile in published.content.profiles {
            let items = profile.items
            for index in items.indices {
                consider(items[index].from)
                consider(items[index].until)
            }
        }
        return next
    }
}
