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
        var next = published.nextPost
        for moment in published.itemMoments.values.joined() where moment > date {
            if next.map({ moment < $0 }) ?? true { next = moment }
        }
        return next
    }
}
