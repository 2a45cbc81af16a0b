import Foundation
import TomoContent
import TomoCore
import TomoStore

/// What every store command shares: finding the store, applying one rule under the lock (or to
/// the store of the `tomo batch` the command is a line of), printing its outcome, and `--json`.
enum StoreCommandSupport {
    static let jsonOption = OptionSpec.flag("json", "print JSON instead of text (for scripts)")

    /// Applies `rule` to the site's store and prints what happened; a no-op says so and exits 0.
    /// `sections` are the parts of the store the rule reads (users always); the others are not decoded.
    static func change(_ invocation: Invocation, sections: Set<StoreSection>, _ rule: (inout Store, URL) throws(Diagnostic) -> Outcome) throws -> Int32 {
        report(try apply(invocation, sections: sections, rule), on: invocation.console)
        return 0
    }

    /// Applies `rule` to the store this invocation changes: its batch's store when it is a line
    /// of `tomo batch`, otherwise the site's store file, under the lock and written when changed.
    static func apply(_ invocation: Invocation, sections: Set<StoreSection>, _ rule: (inout Store, URL) throws(Diagnostic) -> Outcome) throws -> Outcome {
        if let batch = invocation.batch { return try batch.apply(rule) }
        let site = try invocation.siteDirectory()
        return try StoreFile(site: site).update(sections: sections) { store throws(Diagnostic) in try rule(&store, site) }
    }

    /// Runs `body` holding the content files' lock (`StoreFile.holdingFilesLock`), so that
    /// commands that choose and write content files take turns; a line of `tomo batch` runs
    /// inside its batch's hold.
    static func holdingFilesLock<T>(_ invocation: Invocation, site: URL, _ body: () throws -> T) throws -> T {
        if invocation.batch != nil { return try body() }
        return try StoreFile(site: site).holdingFilesLock(body)
    }

    /// Changes to content files that must follow the store write: made now, or after the batch's
    /// one write (so a failing batch leaves the files as they were too). `change` says whether
    /// it changed a file (a batch counts the line as a change then).
    static func afterStoreWrite(_ invocation: Invocation, _ change: @escaping @Sendable () throws -> Bool) throws {
        if let batch = invocation.batch { batch.afterStoreWrite(change) } else { _ = try change() }
    }

    /// The post's visibility as its file says (nil: no such post); a batch reads each post once.
    static func visibility(of post: PostID, _ invocation: Invocation) throws -> PostVisibility? {
        if let batch = invocation.batch { return try batch.visibility(of: post) }
        return try visibility(of: post, in: try invocation.siteDirectory())
    }

    /// The post's visibility as a build reads its front matter, so that no rule of the store
    /// (only public posts can be liked) sees a post otherwise than the build does; nil when
    /// there is no such post, an error at its place when the front matter cannot be read.
    static func visibility(of post: PostID, in site: URL) throws(Diagnostic) -> PostVisibility? {
        let (standing, diagnostics) = ContentLoader.postStanding(site: site, handle: post.handle, slug: post.slug)
        guard let standing else {
            if let error = diagnostics.first(where: { $0.severity == .error }) { throw error }
            return nil
        }
        if standing.isDraft { return .draft }
        switch standing.visibility {
        case .public: return .public
        case .followers: return .followers
        case .private: return .private
        }
    }

    static func report(_ outcome: Outcome, on console: Console) {
        console.line(outcome.changed ? "\(outcome.message)" : "\(console.paint("unchanged: ", .dim))\(outcome.message)")
    }

    /// The store, read without a lock (a reader always sees a whole store); in a batch, the
    /// batch's store as the lines before left it.
    static func read(_ invocation: Invocation, sections: Set<StoreSection>) throws -> (store: Store, site: URL) {
        if let batch = invocation.batch { return (batch.store, batch.site) }
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
