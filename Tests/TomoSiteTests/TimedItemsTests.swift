import Foundation
import Testing
import TomoCore
@testable import TomoSite

/// A site session (what `tomo serve` keeps) rebuilt at each moment an item appears or goes
/// shows what a fresh build at that moment shows, without any file changing.
@Suite struct TimedItemsTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z

    /// `offset` seconds after `start`, as an item's `from`/`until`.
    static func moment(_ offset: Int) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: start.addingTimeInterval(TimeInterval(offset)))
    }

    /// Every file of a session, kept up to date from its updates.
    struct Served {
        var files: [String: [UInt8]] = [:]

        mutating func apply(_ update: SiteSession<[UInt8]>.Update) {
            if update.isWhole { files = [:] }
            files.merge(update.files) { _, new in new }
            for path in update.removed { files[path] = nil }
        }
    }

    static func freshBuild(_ site: SiteFolder, at date: Date) throws -> [String: [UInt8]] {
        try SiteSession(options: BuildOptions(site: site.root, buildDate: date)).buildAll().files
    }

    /// A site of `files`, a session on it built at `start`, and what it serves.
    static func served(_ files: [String: String]) throws -> (site: SiteFolder, session: SiteSession<[UInt8]>, served: Served) {
        let site = try SiteFolder(files)
        let session = SiteSession(options: BuildOptions(site: site.root, buildDate: start))
        var served = Served()
        served.apply(try session.buildAll())
        return (site, session, served)
    }

    @Test func eachMomentShowsWhatAFreshBuildThenShows() throws {
        var (site, session, served) = try Self.served([
            "content/users/alice.yaml": """
                name: Alice
                items:
                  - text: Leaving at 10
                    until: \(Self.moment(10))
                  - text: From 20 to 30
                    from: \(Self.moment(20))
                    until: \(Self.moment(30))
                  - text: Always
                """,
            "content/users/bob.yaml": "name: Bob\nitems:\n  - text: Arriving at 20\n    from: \(Self.moment(20))\n  - text: Long ago\n    from: 1500-03-01\n",
            "content/users/carol.yaml": "name: Carol\nitems:\n  - text: Untimed\n",
        ])
        var moments: [Date] = []
        while let next = session.nextChange {
            moments.append(next)
            let update = try session.rebuild(changedPaths: [], buildDate: next)
            served.apply(update)
            #expect(served.files == (try Self.freshBuild(site, at: next)), "at \(next)")
            #expect(!update.changed.contains("carol/index.html"))
        }
        #expect(moments == [10, 20, 30].map { Self.start.addingTimeInterval($0) })
        let alice = String(decoding: served.files["alice/index.html"] ?? [], as: UTF8.self)
        #expect(!alice.contains("Leaving at 10") && !alice.contains("From 20 to 30") && alice.contains("Always"))
        #expect(String(decoding: served.files["bob/index.html"] ?? [], as: UTF8.self).contains("Arriving at 20"))
    }

    /// A rebuild after an edit, or one that failed, keeps the time of the last good build, and
    /// the next good one catches up on every moment passed since.
    @Test func anEditKeepsTheTimeAndAFailedRebuildIsCaughtUp() throws {
        var (site, session, served) = try Self.served([
            "content/users/alice.yaml": "name: Alice\nitems:\n  - text: Leaving at 10\n    until: \(Self.moment(10))\n",
            "content/users/bob.yaml": "name: Bob\n",
        ])
        try site.write("content/users/bob.yaml", "name: Bob\nitems:\n  - text: Here\n")
        served.apply(try session.rebuild(changedPaths: ["content/users/bob.yaml"]))
        #expect(served.files == (try Self.freshBuild(site, at: Self.start)))
        let later = Self.start.addingTimeInterval(15)
        try site.write("content/users/bob.yaml", "name: Bob\nitems:\n  - text: x\n    color: pruple\n")
        #expect(throws: DiagnosticList.self) { try session.rebuild(changedPaths: ["content/users/bob.yaml"], buildDate: later) }
        #expect(session.nextChange == Self.start.addingTimeInterval(10), "the last good site still changes then")
        try site.write("content/users/bob.yaml", "name: Bob\n")
        served.apply(try session.rebuild(changedPaths: ["content/users/bob.yaml"], buildDate: later))
        #expect(served.files == (try Self.freshBuild(site, at: later)))
        #expect(session.nextChange == nil)
    }

    /// A profile that gets its first dated item in an edit, or loses its last one, moves the
    /// next moment: the session keeps the other profiles as they were, and which of them have
    /// dated items, from one rebuild to the next.
    @Test func anEditGivesOrTakesAProfilesDatedItems() throws {
        var (site, session, served) = try Self.served([
            "content/users/alice.yaml": "name: Alice\nitems:\n  - text: Leaving at 30\n    until: \(Self.moment(30))\n",
            "content/users/carol.yaml": "name: Carol\nitems:\n  - text: Untimed\n",
        ])
        #expect(session.nextChange == Self.start.addingTimeInterval(30))
        try site.write("content/users/carol.yaml", "name: Carol\nitems:\n  - text: Leaving at 5\n    until: \(Self.moment(5))\n")
        served.apply(try session.rebuild(changedPaths: ["content/users/carol.yaml"]))
        #expect(session.nextChange == Self.start.addingTimeInterval(5), "carol's new item goes first")
        let five = Self.start.addingTimeInterval(5)
        served.apply(try session.rebuild(changedPaths: [], buildDate: five))
        #expect(served.files == (try Self.freshBuild(site, at: five)))
        #expect(!String(decoding: served.files["carol/index.html"] ?? [], as: UTF8.self).contains("Leaving at 5"))
        #expect(session.nextChange == Self.start.addingTimeInterval(30))
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Staying\n")
        served.apply(try session.rebuild(changedPaths: ["content/users/alice.yaml"]))
        #expect(session.nextChange == nil, "no profile has a dated item left")
        #expect(served.files == (try Self.freshBuild(site, at: five)))
    }

    /// Moments a count of nanoseconds cannot hold (after April 2262) or before the Gregorian
    /// calendar are moments like any other.
    @Test func distantMomentsAreKept() throws {
        let site = try SiteFolder([
            "content/users/alice.yaml": "name: Alice\nitems:\n  - text: Far\n    until: 9999-12-31\n  - text: Old\n    from: 1066-10-14\n",
        ])
        let session = SiteSession(options: BuildOptions(site: site.root, buildDate: Self.start))
        _ = try session.buildAll()
        let far = try #require(session.nextChange)
        #expect(far.timeIntervalSince1970 > Double(Int64.max) / 1e9, "later than nanoseconds reach")
        let update = try session.rebuild(changedPaths: [], buildDate: far)
        let page = String(decoding: update.files["alice/index.html"] ?? [], as: UTF8.self)
        #expect(!page.contains("Far") && page.contains("Old"))
        #expect(session.nextChange == nil)
    }
}
