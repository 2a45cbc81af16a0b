import Foundation
import TomoCore
import TomoStore

/// What every store command shares: finding the store, applying one rule under the lock,
/// printing its outcome, and printing `--json`.
enum StoreCommandSupport {
    static let jsonOption = OptionSpec.flag("json", "print JSON instead of text (for scripts)")

    /// Applies `rule` to the site's store and prints what happened; a no-op says so and exits 0.
    /// `sections` are the parts of the store the rule reads (users always); the others are not decoded.
    static func change(_ invocation: Invocation, sections: Set<StoreSection>, _ rule: (inout Store, URL) throws(Diagnostic) -> Outcome) throws -> Int32 {
        let site = try invocation.siteDirectory()
        let outcome = try StoreFile(site: site).update(sections: sections) { store throws(Diagnostic) in try rule(&store, site) }
        report(outcome, on: invocation.console)
        return 0
    }

    static func report(_ outcome: Outcome, on console: Console) {
        console.line(outcome.changed ? outcome.message : console.paint("unchanged: ", .dim) + outcome.message)
    }

    /// The store, read without a lock (a reader always sees a whole store).
    static func read(_ invocation: Invocation, sections: Set<StoreSection>) throws -> (store: Store, site: URL) {
        let site = try invocation.siteDirectory()
        return (try StoreFile(site: site).read(sections: sections), site)
    }

    static func printJSON(_ value: JSONValue, on console: Console) {
        console.line(JSONWriter.string(value, style: .pretty))
    }

    /// A handle list as text: one per line, or a sentence when there is none.
    static func printHandles(_ handles: [String], emptyMessage: String, on console: Console) {
        if handles.isEmpty {
            console.line(console.paint(emptyMessage, .dim))
        } else {
            for handle in handles { console.line(handle) }
        }
    }
}
