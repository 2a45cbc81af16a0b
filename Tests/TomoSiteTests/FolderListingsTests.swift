import Foundation
import Testing
import TomoContent
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// `tomo build` loads the site from the folders as its stamping walk found them
/// (`FolderListings`) instead of listing them again: whatever the folders hold (links that the
/// site's rule follows or refuses, loops, hidden names, folders named as files, stray files,
/// named pipes), the load must be the one that lists every folder itself.
@Suite struct FolderListingsTests {
    @Test(arguments: 0..<40)
    func aLoadFromTheWalksListingsIsALoadThatListsEveryFolder(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x11_57 &+ seed)
        let site = try TemporaryFolder(prefix: "tomo-listings")
        let outside = try TemporaryFolder(prefix: "tomo-outside")
        try outside.write("elsewhere/x.md", "---\nphoto: x.jpg\n---\nOutside.\n")
        try site.write("content/site.yaml", "title: Listings\nbaseURL: https://example.com/\n")
        let handles = ["alice", "bob", "carol", "dave"]
        for handle in handles where random.chance(0.8) {
            try site.write("content/users/\(handle).\(random.pick(["yaml", "yaml", "json", "yml"]))", random.chance(0.5) ? "name: \(handle)\n" : "{\"name\": \"\(handle)\"}\n")
            for number in 0..<Int.random(in: 0...4, using: &random) {
                try site.write("content/posts/\(handle)/p\(number).md", "---\nphoto: p\(number).jpg\n---\nPost \(number).\n")
                try site.write("content/posts/\(handle)/p\(number).jpg", "photo")
            }
        }
        let manager = FileManager.default
        let root = site.url.path
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let handle = random.pick(handles)
            switch Int.random(in: 0..<11, using: &random) {
            case 0: try site.write("content/posts/\(handle)/.hidden.md", "---\nphoto: p0.jpg\n---\nHidden.\n")
            case 1: try site.write("content/posts/stray.txt", "stray")
            case 2: try site.write("content/posts/\(handle)/notes.txt", "notes")
            case 3: try? manager.createDirectory(atPath: root + "/content/users/\(handle)x.yaml", withIntermediateDirectories: true)
            case 4: try? manager.createDirectory(atPath: root + "/content/posts/\(handle)/folder.md", withIntermediateDirectories: true)
            case 5: try? manager.createSymbolicLink(atPath: root + "/content/posts/\(handle)/linked.md", withDestinationPath: "p0.md")
            case 6: try? manager.createSymbolicLink(atPath: root + "/content/posts/\(handle)l", withDestinationPath: handle)
            case 7: try? manager.createSymbolicLink(atPath: root + "/content/posts/\(handle)o", withDestinationPath: outside.url.appendingPathComponent("elsewhere").path)
            case 8: try? manager.createSymbolicLink(atPath: root + "/content/posts/\(handle)/loop", withDestinationPath: ".")
            case 9: mkfifo(root + "/content/posts/\(handle)/pipe.md", 0o644)
            default: try site.write("content/pages/\(random.pick(["about", "help", handle])).md", "---\ntitle: Page\n---\nText.\n")
            }
        }
        let listings = InputStamps.scan(site: site.url).listings
        let walked = ContentLoader.load(site: site.url, listings: listings)
        let listed = ContentLoader.load(site: site.url)
        #expect(walked.diagnostics == listed.diagnostics, "seed \(seed)")
        #expect(walked.content?.profiles == listed.content?.profiles, "seed \(seed)")
        #expect(walked.content?.posts == listed.content?.posts, "seed \(seed)")
        #expect(walked.content?.pages == listed.content?.pages, "seed \(seed)")
        #expect(walked.postFileCount == listed.postFileCount && walked.profileFileCount == listed.profileFileCount && walked.pageFileCount == listed.pageFileCount, "seed \(seed)")
    }

    /// A folder holding a link is never taken from the walk: the loader lists it itself, and
    /// applies the site's rule to the link.
    @Test func aFolderWithALinkIsNotKept() throws {
        let site = try TemporaryFolder(prefix: "tomo-listings")
        try site.write("content/posts/alice/a.md", "text")
        try site.write("content/posts/bob/b.md", "text")
        try FileManager.default.createSymbolicLink(atPath: site.url.path + "/content/posts/alice/link.md", withDestinationPath: "a.md")
        let listings = InputStamps.scan(site: site.url).listings
        #expect(listings.entries(of: "content/posts/alice") == nil)
        #expect(listings.entries(of: "content/posts/bob") == [FolderListings.Entry(name: "b.md", isFolder: false)])
        #expect(listings.entries(of: "content/posts")?.map(\.name) == ["alice", "bob"])
    }
}
