import Foundation
import Testing
import TomoCore
@testable import TomoContent

/// Markdown that nests block quotes and lists deeper than libcmark handles in reasonable time
/// is an error at its place in every text that is Markdown (a caption, a page, a bio), before
/// libcmark sees it; up to the limit it is read as before.
@Suite struct MarkdownNestingTests {
    /// `Markdown.maximumNesting`.
    static let limit = 100
    static let post = "---\nphoto: p.jpg\ndate: 2026-05-01\nalt: x\n---\n\n"

    static func site(caption: String = "Hi.", page: String = "Hello.", bio: String = "Hi.") throws -> SiteFixture {
        try SiteFixture([
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.png\nbio: \(JSONWriter.string(.string(bio), style: .compact))\n",
            "content/users/alice/icon.png": "png",
            "content/posts/alice/p.md": Self.post + caption + "\n",
            "content/posts/alice/p.jpg": "jpg",
            "content/pages/about.md": "---\ntitle: About\n---\n" + page + "\n",
        ])
    }

    /// Markers that each open one block quote or list item, and a line that nests `depth` of them.
    static let markers = ["> ", ">", "- ", "* ", "+ ", "1. ", "12) ", "> - "]

    static func nested(_ marker: String, depth: Int) -> String {
        String(repeating: marker, count: depth / (marker == "> - " ? 2 : 1)) + "text"
    }

    @Test func upToTheLimitEveryTextReads() throws {
        for marker in Self.markers {
            let text = Self.nested(marker, depth: Self.limit)
            let site = try Self.site(caption: text, page: text, bio: text)
            #expect(site.errors() == [], "\(marker.debugDescription)")
        }
    }

    @Test func pastTheLimitEachTextIsAnErrorAtItsPlace() throws {
        for marker in Self.markers {
            let text = "Fine.\n" + Self.nested(marker, depth: Self.limit + 2)
            let column = marker == ">" ? Self.limit + 1 : marker.utf8.count * (marker == "> - " ? Self.limit / 2 : Self.limit) + 1
            let site = try Self.site(caption: text, page: text, bio: text)
            let limit = "nests block quotes and lists more than \(Self.limit) deep: write it with fewer `>` and list markers"
            #expect(site.errors() == [
                "content/pages/about.md:5:\(column): the page \(limit)",
                "content/posts/alice/p.md:8:\(column): the caption \(limit)",
                "content/users/alice.yaml:3:6: the bio \(limit) (its line 2)",
            ], "\(marker.debugDescription)")
        }
    }

    /// What used to take libcmark minutes (200,000 `>` and a line of emphasis) is refused at once.
    @Test func aPathologicalCaptionIsRefusedQuickly() throws {
        let caption = String(repeating: ">", count: 200_000) + " hi\n" + String(repeating: "*", count: 100_000) + "x" + String(repeating: "*", count: 100_000)
        let site = try Self.site(caption: caption)
        let started = ContinuousClock.now
        let errors = site.errors()
        #expect(started.duration(to: .now) < .seconds(5))
        #expect(errors.count == 1 && errors[0].hasPrefix("content/posts/alice/p.md:7:101: the caption nests"), "\(errors)")
    }
}
