import Foundation
import Testing
import TomoTestSupport

/// Dates at the edges of what content files can say (the first year, the calendar reform,
/// the end of Int64 nanoseconds in April 2262, the last year): a build, and the one after it,
/// never trap, and a post is published once its date has come.
@Suite struct DateBoundaryTests {
    static let dates = ["0001-01-01", "1582-10-04", "2262-04-11T23:47:16Z", "2262-04-12", "2999-12-31", "9999-12-31", "9999-12-31T23:59:59.999999999-18:00"]

    /// The items of a profile, each running `from`–`until` (nil: open-ended).
    static func ranges(around date: String) -> [(from: String?, until: String?)] {
        [(nil, date), (date, nil), ("0001-01-01", date)]
    }

    /// A site whose profile has the items of `ranges(around: date)` and whose post is dated `date`.
    static func site(around date: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.url.path]).status == 0)
        var items = ""
        for (index, range) in ranges(around: date).enumerated() {
            items += "  - text: Dated item \(index)\n"
            if let from = range.from { items += "    from: \(from)\n" }
            if let until = range.until { items += "    until: \(until)\n" }
        }
        try folder.write("content/users/example.yaml", "name: Example\nitems:\n\(items)")
        try folder.write("content/posts/example/dated.md", "---\nphoto: p.jpg\ndate: \(date)\nalt: A photo\n---\nDated\n")
        try FileManager.default.copyItem(at: sampleJPEG, to: folder.url.appendingPathComponent("content/posts/example/p.jpg"))
        return folder
    }

    @Test(arguments: dates)
    func itemsAndPostsDatedAtTheEdgesBuildTwice(date: String) throws {
        let site = try Self.site(around: date)
        // The first build keeps the next moment an item appears or goes; the second reads it.
        for build in ["first", "second"] {
            let run = try ProcessRun.tomo(["build"], in: site.url)
            #expect(run.ending == .exited(0), "\(build) build: \(run)")
        }
        let page = String(decoding: FileManager.default.contents(atPath: site.url.appendingPathComponent("public/example/index.html").path) ?? Data(), as: UTF8.self)
        // Shown exactly when today is inside the item's dates (none of which is this year).
        let year = String(Calendar(identifier: .gregorian).component(.year, from: Date()))
        for (index, range) in Self.ranges(around: date).enumerated() {
            let shown = (range.from.map { $0.prefix(4) < year } ?? true) && (range.until.map { $0.prefix(4) > year } ?? true)
            #expect(page.contains("Dated item \(index)") == shown, "from \(range.from ?? "-") until \(range.until ?? "-")")
        }
        // Published once its date has come: a post dated later waits (its date is the next change).
        let published = FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/example/posts/dated/index.html").path)
        #expect(published == (date.prefix(4) < year))
    }

    @Test func aFileDatedAfter2262IsStampedWithoutATrap() throws {
        let site = try Self.site(around: "2026-05-01")
        var times = [timespec(tv_sec: 253_402_300_799, tv_nsec: 999_999_999), timespec(tv_sec: 253_402_300_799, tv_nsec: 999_999_999)]
        #expect(utimensat(AT_FDCWD, site.url.appendingPathComponent("content/users/example.yaml").path, &times, 0) == 0)
        for _ in 0..<2 {
            let run = try ProcessRun.tomo(["build"], in: site.url)
            #expect(run.ending == .exited(0), "\(run)")
        }
    }
}

