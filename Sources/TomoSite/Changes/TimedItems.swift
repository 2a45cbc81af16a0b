import Foundation
import TomoContent

/// Profile items with `from`/`until` change a profile page at a moment, without any file
/// changing (`InputFingerprints` fingerprints which items show at the build date). `tomo build`
/// keeps the next such moment and does not stop at "nothing changed" after it; `tomo serve`
/// rebuilds at it.
enum TimedItems {
    /// The first moment after `date` at which an item of some profile appears or disappears.
    static func nextChange(after date: Date, in content: SiteContent) -> Date? {
        let moments = content.profiles.lazy.flatMap(\.items).flatMap { [$0.from, $0.until] }.compactMap { $0 }
        return moments.filter { $0 > date }.min()
    }
}
