import Foundation
import Testing
import TomoCore
@testable import TomoImages
@testable import TomoSite

/// Published thumbnails and site icons are hard links to the image cache: a published file
/// edited in place (a tagger adding GPS data, an optimiser) edits the cached one too. A
/// `--full` build, the one to run after changing the output by hand, reads every cached file
/// it publishes and makes again those whose bytes are not the ones recorded, so that every
/// published image again holds the bytes its name's hash names, and no added metadata.
@Suite struct EditedOutputTests {
    /// `media/…/name-3fa01c9e-320.jpg`: the eight hex digits of the name.
    static func nameHash(_ path: String) -> String? {
        let parts = (path as NSString).lastPathComponent.split(separator: "-")
        return parts.count >= 3 ? String(parts[parts.count - 2]) : nil
    }

    @Test func aFullBuildRepairsAPublishedImageEditedInPlace() throws {
        let site = try SiteFolder([
            "content/site.yaml": SiteFolder.siteYAML + "icon: brand/icon.jpg\n",
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n",
        ])
        try site.write("content/users/alice/icon.jpg", bytes: PostPagesTests.photo)
        try site.write("content/brand/icon.jpg", bytes: PostPagesTests.photo)
        try site.build()
        let thumbnails = site.outputFiles().keys.filter { $0.hasPrefix("media/alice/icon-") && $0.hasSuffix(".jpg") }
        let icons = site.outputFiles().keys.filter { $0.hasPrefix("media/site-icon-") }
        let edited = try #require(thumbnails.sorted().first)
        let icon = try #require(icons.sorted().first)
        let iconBefore = try Data(contentsOf: site.output.appendingPathComponent(icon))
        // Written into the very file (its inode), as `exiftool -overwrite_original_in_place` does.
        for path in [edited, icon] {
            let handle = try FileHandle(forWritingTo: site.output.appendingPathComponent(path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("GPS 12.5N".utf8))
            try handle.close()
        }
        let report = try SiteBuilder.build(BuildOptions(site: site.root, full: true))
        #expect(report.written >= 2)
        let bytes = [UInt8](try Data(contentsOf: site.output.appendingPathComponent(edited)))
        #expect(String(SHA256.hex(of: bytes).prefix(8)) == Self.nameHash(edited))
        #expect(bytes.firstRange(of: Array("GPS 12.5N".utf8)) == nil)
        #expect(try Data(contentsOf: site.output.appendingPathComponent(icon)) == iconBefore)
        // A build into a new folder publishes the repaired files too.
        let elsewhere = site.root.appendingPathComponent("fresh")
        _ = try SiteBuilder.build(BuildOptions(site: site.root, output: elsewhere))
        let fresh = [UInt8](try Data(contentsOf: elsewhere.appendingPathComponent(edited)))
        #expect(fresh == bytes)
        // And a --full build with nothing edited writes nothing.
        #expect(try SiteBuilder.build(BuildOptions(site: site.root, full: true)).written == 0)
    }
}
