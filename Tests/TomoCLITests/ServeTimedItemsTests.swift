import Foundation
import Testing
import TomoTestSupport

/// A running `tomo serve` shows an item when its `from` moment passes and hides it when its
/// `until` passes, with no file edited, as a `tomo build` run then would; and an item dated
/// beyond what a timer can wait for costs nothing while it waits.
@Suite struct ServeTimedItemsTests {
    static func site(_ profile: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        try folder.write("content/users/alice.yaml", profile)
        try Unprivileged.handOver(folder.url)
        return folder
    }

    /// `date` as an item's `from`/`until` (UTC, to the millisecond).
    static func written(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The body of `/alice/` once it satisfies `condition` (or nil after 15 s).
    static func profilePage(_ server: ServedPreview, until condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let reply = try? fetch(server.port, "/alice/"), reply.status == 200 {
                let body = String(decoding: reply.body, as: UTF8.self)
                if condition(body) { return body }
            }
            usleep(50_000)
        }
        return nil
    }

    @Test func itemsAppearAndGoWhenTheirMomentsPass() throws {
        let site = try Self.site("name: Alice\n")
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(Self.profilePage(server) { $0.contains("Alice") } != nil)
        // Written after the start, so the moments are ahead of the rebuild this edit makes
        // however long the start took; none is ahead of the date the preview started at.
        let start = Date()
        let first = Self.written(start.addingTimeInterval(2)), second = Self.written(start.addingTimeInterval(3.5))
        try site.write("content/users/alice.yaml", """
            name: Alice
            items:
              - text: Leaving first
                until: \(first)
              - text: Arriving first
                from: \(first)
              - text: Passing through
                from: \(first)
                until: \(second)
              - text: Always here
            """)
        let before = Self.profilePage(server) { $0.contains("Always here") }
        #expect(before?.contains("Leaving first") == true, "\(server.errors)")
        #expect(before?.contains("Arriving first") == false)
        let between = Self.profilePage(server) { !$0.contains("Leaving first") }
        #expect(between?.contains("Arriving first") == true, "\(server.errors)")
        #expect(between?.contains("Passing through") == true || Date() >= start.addingTimeInterval(3.5))
        let after = Self.profilePage(server) { !$0.contains("Passing through") }
        #expect(after?.contains("Arriving first") == true, "\(server.errors)")
        #expect(after?.contains("Always here") == true)
        #expect(Date() >= start.addingTimeInterval(3.5), "nothing was hidden before its moment")
    }

    /// An item's icon is published with the item, not before: at its `from` moment the
    /// preview makes the thumbnail and serves it, as a build then would.
    @Test func anItemsIconIsServedFromTheMomentTheItemIs() throws {
        let site = try Self.site("name: Alice\n")
        try site.write("content/users/alice/arriving.png", bytes: PNGBytes.grey(width: 40, height: 40))
        try Unprivileged.handOver(site.url)
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(Self.profilePage(server) { $0.contains("Alice") } != nil)
        let arrival = Self.written(Date().addingTimeInterval(2))
        try site.write("content/users/alice.yaml", "name: Alice\nitems:\n  - text: Always here\n  - text: Arriving\n    icon: alice/arriving.png\n    from: \(arrival)\n")
        let before = Self.profilePage(server) { $0.contains("Always here") }
        #expect(before?.contains("arriving-") == false, "\(server.errors)")
        let after = try #require(Self.profilePage(server) { $0.contains("Arriving") }, "\(server.errors)")
        let source = try #require(after.firstMatch(of: /src="(\/media\/alice\/arriving-[^"]+)"/)?.1, "\(after)")
        #expect(try fetch(server.port, String(source)).status == 200)
    }

    /// Moments after 2262 (past what a count of nanoseconds holds) and before 1582: the preview
    /// serves them, does not crash, and its timer sleeps instead of spinning.
    @Test func distantMomentsNeitherCrashNorSpin() throws {
        let site = try Self.site("""
            name: Alice
            items:
              - text: Until far ahead
                until: 9999-12-31T23:59:59+14:00
              - text: From long ago
                from: 1500-03-01
              - text: Between the two
                from: 1066-10-14
                until: 2262-04-12
            """)
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        let page = Self.profilePage(server) { $0.contains("Alice") }
        for text in ["Until far ahead", "From long ago", "Between the two"] {
            #expect(page?.contains(text) == true, "\(text): \(server.errors)")
        }
        let before = try #require(server.cpuSeconds)
        Thread.sleep(forTimeInterval: 2)
        let after = try #require(server.cpuSeconds, "tomo serve is still running")
        #expect(after - before < 0.3, "an idle preview used \(after - before) s of CPU in 2 s")
        #expect(Self.profilePage(server) { $0.contains("Until far ahead") } != nil)
    }
}

extension ServedPreview {
    /// The CPU time the serving process used so far (user and system), from /proc.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After the command name: state, then fields 4 onwards; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
