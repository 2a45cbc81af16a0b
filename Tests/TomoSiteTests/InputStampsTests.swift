import Foundation
import Testing
import TomoCore
import TomoTestSupport
@testable import TomoSite

/// `tomo serve` takes the stamps again only for the paths it is told changed
/// (`InputStamps.restamp`); after any change those must be the stamps a whole scan takes, and
/// the scan's digest (all `tomo build` compares when nothing changed) must change with them.
@Suite struct InputStampsTests {
    @Test func restampingTheChangedPathsGivesWhatAWholeScanGives() throws {
        let site = try TemporaryFolder(prefix: "tomo-stamps")
        let manager = FileManager.default
        let names = ["content/users/alice", "content/users/bob", "content/posts/alice", "content/pages", "templates/partials", "static/css"]
        for folder in names {
            for index in 0..<3 { try site.write("\(folder)/f\(index).txt", "\(folder) \(index)") }
        }
        try site.write("content/site.yaml", "title: T\n")
        var stamps = InputStamps.scan(site: site.url)
        var last = (digest: InputStamps.take(site: site.url).digest, byPath: stamps.byPath, folders: stamps.walkedFolders)
        var random = SplitMix64(seed: 41)
        for step in 0..<60 {
            let folder = random.pick(names)
            let path = random.chance(0.5) ? folder : "\(folder)/f\(Int.random(in: 0..<4, using: &random))"
            let url = site.url.appendingPathComponent(path)
            var changed: Set<String> = [path]
            // An earlier step may have made the folder a file, or removed it.
            var isFolder: ObjCBool = false
            if path != folder, !(manager.fileExists(atPath: site.url.appendingPathComponent(folder).path, isDirectory: &isFolder) && isFolder.boolValue) {
                try? manager.removeItem(at: site.url.appendingPathComponent(folder))
                try manager.createDirectory(at: site.url.appendingPathComponent(folder), withIntermediateDirectories: true)
                changed.insert(folder)
            }
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                // A folder (or file) replaced by a file.
                try? manager.removeItem(at: url)
                try Data("file \(step)".utf8).write(to: url)
            case 1:
                // Replaced by a folder with files in it.
                try? manager.removeItem(at: url)
                try site.write("\(path)/inner\(step).txt", "inner")
            case 2:
                try? manager.removeItem(at: url)
            case 3:
                // An editor's temporary file beside the path, saved over it.
                let temporary = (path == folder ? (folder as NSString).deletingLastPathComponent : folder) + "/.tmp\(step)"
                try site.write(temporary, "saved \(step)")
                try? manager.removeItem(at: url)
                try manager.moveItem(at: site.url.appendingPathComponent(temporary), to: url)
                changed.insert(temporary)
            default:
                try? Data("edit \(step)".utf8).write(to: url)
            }
            stamps.restamp(changed, site: site.url)
            let taken = InputStamps.take(site: site.url)
            let scanned = taken.merged()
            // The digest a build compares alone changes exactly when a stamp or a folder does.
            #expect((taken.digest == last.digest) == (scanned.byPath == last.byPath && scanned.walkedFolders == last.folders), "step \(step): \(path)")
            #expect(InputStamps.take(site: site.url).digest == taken.digest, "step \(step): the digest is the same in any order")
            last = (taken.digest, scanned.byPath, scanned.walkedFolders)
            #expect(stamps.byPath == scanned.byPath, "step \(step): \(path)")
            #expect(stamps.walkedFolders == scanned.walkedFolders, "step \(step): \(path)")
        }
    }

    /// An empty folder made where a content file goes (`content/users/zed.yaml/`) changes the
    /// digest: the build does not stop at "nothing changed", and reports it as a full one does.
    @Test func anEmptyFolderChangesTheDigest() throws {
        let site = try TemporaryFolder(prefix: "tomo-stamps")
        try site.write("content/site.yaml", "title: T\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        let before = InputStamps.take(site: site.url).digest
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("content/users/zed.yaml"), withIntermediateDirectories: true)
        let after = InputStamps.take(site: site.url).digest
        #expect(after != before)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/zed.yaml"))
        #expect(InputStamps.take(site: site.url).digest == before)
    }
}
