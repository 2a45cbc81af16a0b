import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoContent
@testable import TomoSite

/// The profiles and posts kept in `.tomo-cache/content` (`ParsedFiles`): a load that uses them
/// must give what parsing every file gives, whatever happened to the files in between.
@Suite struct ParsedFilesTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The demo site's content, copied: profiles with links, items, looks and languages, posts
    /// with photos, alt text and captions.
    private func demoSite() throws -> TemporaryFolder {
        let folder = try TemporaryFolder(prefix: "tomo-parsed")
        try folder.copy(Self.repository.appendingPathComponent("content"), to: "content")
        return folder
    }

    /// A load through the cache (saved afterwards, as a build does) and how many files it parsed.
    private func cachedLoad(_ site: URL, tool: String = "test") -> (ContentLoadResult, parsedAnew: Int) {
        let parsed = ParsedFiles(site: site, stamps: InputStamps.scan(site: site).byPath, tool: tool)
        let result = ContentLoader.load(site: site, parsed: parsed)
        parsed.save()
        return (result, parsed.parsedAnewCount)
    }

    /// What the cached load gave must be what parsing every file gives now.
    private func expectSameAsParsing(_ cached: ContentLoadResult, _ site: URL, _ step: String) {
        let fresh = ContentLoader.load(site: site)
        #expect(cached.diagnostics == fresh.diagnostics, "\(step)")
        #expect(cached.content?.profiles == fresh.content?.profiles, "\(step)")
        #expect(cached.content?.posts == fresh.content?.posts, "\(step)")
        #expect(cached.content?.pages == fresh.content?.pages, "\(step)")
    }

    @Test func everyDemoProfileAndPostReadsBackEqual() throws {
        let content = try #require(ContentLoader.load(site: Self.repository).content)
        #expect(!content.profiles.isEmpty && !content.posts.isEmpty)
        for profile in content.profiles {
            try expectRoundTrip(profile, "@\(profile.handle)", write: { $0.write($1) }, read: { reader throws(ByteReader.Malformed) in try reader.profile() })
        }
        for post in content.posts {
            try expectRoundTrip(post, post.id, write: { $0.write($1) }, read: { reader throws(ByteReader.Malformed) in try reader.post() })
        }
    }

    private func expectRoundTrip<Value: Equatable>(
        _ value: Value, _ name: String, write: (inout ByteWriter, Value) -> Void, read: (inout ByteReader) throws(ByteReader.Malformed) -> Value
    ) throws {
        var writer = ByteWriter()
        write(&writer, value)
        var reader = ByteReader(writer.bytes)
        #expect(try read(&reader) == value, "\(name)")
        #expect(reader.isAtEnd, "\(name)")
    }

    @Test func aSecondLoadParsesNothingAndAnEditParsesOnlyTheEditedFile() throws {
        let site = try demoSite()
        let (first, parsedFirst) = cachedLoad(site.url)
        let files = (first.content?.profiles.count ?? 0) + (first.content?.posts.count ?? 0)
        #expect(parsedFirst == files)
        let (second, parsedSecond) = cachedLoad(site.url)
        #expect(parsedSecond == 0)
        expectSameAsParsing(second, site.url, "unchanged")

        let post = try #require(first.content?.posts.first)
        let text = try String(contentsOf: site.url.appendingPathComponent(post.file), encoding: .utf8)
        try site.write(post.file, text + "\nOne more line.\n")
        let (third, parsedThird) = cachedLoad(site.url)
        #expect(parsedThird == 1)
        #expect(third.content?.posts.first { $0.id == post.id }?.caption.markdown.hasSuffix("One more line.") == true)
        expectSameAsParsing(third, site.url, "edited")
    }

    /// A cache rewritten after many edits copies the entries it kept as they were read: the load
    /// after it parses nothing and gives what parsing gives, over several rounds of rewrites.
    @Test func aRewrittenCacheKeepsTheUnchangedEntriesWhole() throws {
        let site = try demoSite()
        let model = try String(contentsOf: site.url.appendingPathComponent("content/posts/alice/film-morning.md"), encoding: .utf8)
        for number in 0..<60 { try site.write("content/posts/alice/extra-\(number).md", model) }
        _ = cachedLoad(site.url)
        for round in 0..<3 {
            // More than sixteen files parsed anew: the cache is written again.
            for number in stride(from: round, to: 60, by: 3) {
                try site.write("content/posts/alice/extra-\(number).md", model + "\nRound \(round).\n")
            }
            let (edited, parsedEdited) = cachedLoad(site.url)
            #expect(parsedEdited == 20, "round \(round)")
            expectSameAsParsing(edited, site.url, "round \(round), edited")
            let (again, parsedAgain) = cachedLoad(site.url)
            #expect(parsedAgain == 0, "round \(round)")
            expectSameAsParsing(again, site.url, "round \(round), again")
        }
    }

    @Test func anotherToolOrADamagedCacheIsIgnored() throws {
        let site = try demoSite()
        let (first, files) = cachedLoad(site.url)
        #expect(cachedLoad(site.url, tool: "another").parsedAnew == files)
        let cache = site.url.appendingPathComponent(".tomo-cache/content")
        var random = SplitMix64(seed: 23)
        for _ in 0..<20 {
            _ = cachedLoad(site.url)
            var bytes = try [UInt8](Data(contentsOf: cache))
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] ^= UInt8.random(in: 1...255, using: &random)
            if random.chance(0.3) { bytes.removeLast(Int.random(in: 1...min(64, bytes.count), using: &random)) }
            try Data(bytes).write(to: cache)
            let (damaged, parsed) = cachedLoad(site.url)
            #expect(parsed == files, "a damaged cache at byte \(index) must not be used")
            expectSameAsParsing(damaged, site.url, "damaged at \(index)")
            #expect(damaged.content?.posts == first.content?.posts)
        }
    }

    /// Seeded edits of what the kept files depend on (their own text, the photos and icons
    /// they name, links and folders on the way): after each one the cached load is compared
    /// with parsing every file.
    @Test func seededEditsNeverLeaveAStaleParse() throws {
        let site = try demoSite()
        let root = site.url
        let outside = try TemporaryFolder(prefix: "tomo-outside")
        try outside.write("elsewhere.jpg", "not in the site")
        let start = try #require(ContentLoader.load(site: root).content)
        let posts = start.posts
        let profiles = start.profiles.filter { $0.icon != nil }
        try #require(!posts.isEmpty && !profiles.isEmpty)
        var random = SplitMix64(seed: 0x5eed)
        _ = cachedLoad(root)
        let manager = FileManager.default
        for step in 0..<40 {
            let post = random.pick(posts)
            let profile = random.pick(profiles)
            let photo = root.appendingPathComponent(post.photoFile)
            let icon = root.appendingPathComponent(ContentPath.userFile(profile.icon ?? ""))
            let postFile = root.appendingPathComponent(post.file)
            let action = Int.random(in: 0..<8, using: &random)
            // Put back whatever an earlier step took away, half of the time.
            for url in [photo, icon] where random.chance(0.5) {
                var status = stat()
                if lstat(url.path, &status) != 0 || status.isLink || status.isFolder {
                    try? manager.removeItem(at: url)
                    try Data("restored \(step)".utf8).write(to: url)
                }
            }
            switch action {
            case 0: try? manager.removeItem(at: photo)
            case 1:
                try? manager.removeItem(at: icon)
                try manager.createSymbolicLink(atPath: icon.path, withDestinationPath: outside.url.appendingPathComponent("elsewhere.jpg").path)
            case 2:
                try? manager.removeItem(at: photo)
                try manager.createDirectory(at: photo, withIntermediateDirectories: true)
            case 3:
                if let text = try? String(contentsOf: postFile, encoding: .utf8) {
                    try (text.replacingOccurrences(of: "photo:", with: "photo: ../\(post.handle)/") ).write(to: postFile, atomically: true, encoding: .utf8)
                }
            case 4:
                if let text = try? String(contentsOf: postFile, encoding: .utf8) {
                    try (text + "\nstep \(step)\n").write(to: postFile, atomically: false, encoding: .utf8)
                }
            case 5:
                try? manager.removeItem(at: photo)
                try manager.createSymbolicLink(atPath: photo.path, withDestinationPath: "../\(post.handle)/missing.jpg")
            case 6:
                // The same bytes again, by another inode.
                if let bytes = try? Data(contentsOf: icon) {
                    try? manager.removeItem(at: icon)
                    try bytes.write(to: icon)
                }
            default:
                try? manager.removeItem(at: postFile)
            }
            let (cached, _) = cachedLoad(root)
            expectSameAsParsing(cached, root, "step \(step), edit \(action) of \(post.id) / @\(profile.handle)")
        }
    }
}
