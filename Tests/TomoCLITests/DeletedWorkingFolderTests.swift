import Foundation
import Testing
import TomoTestSupport

/// tomo started in a folder that was deleted (a shell left in it): a command that needs the
/// folder (a relative path, the site found from it) says so, with the fix, instead of a
/// Foundation message about URL types or "no site here"; an absolute path still works.
@Suite struct DeletedWorkingFolderTests {
    /// Runs `tomo arguments` in `folder/gone`, deleted just before.
    static func runInDeletedFolder(_ arguments: [String], in folder: TemporaryFolder) throws -> CommandResult {
        let script = "mkdir gone && cd gone && rmdir ../gone && exec \"$@\""
        return try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", tomoBinary().path] + arguments, in: folder.url)
    }

    @Test func aCommandThatNeedsTheDeletedFolderSaysSo() throws {
        let folder = try TemporaryFolder()
        for arguments in [["init"], ["init", "my-site"], ["build"], ["user", "list"], ["build", "--site", "elsewhere"]] {
            let result = try Self.runInDeletedFolder(arguments, in: folder)
            #expect(result.status == 1, "\(arguments): \(result.error)")
            #expect(result.error.contains("error: the current folder cannot be read (No such file or directory): it was deleted or moved; cd to a folder that exists, or give an absolute path"), "\(arguments): \(result.error)")
        }
        let site = folder.url.appendingPathComponent("site").path
        let created = try Self.runInDeletedFolder(["init", site], in: folder)
        #expect(created.status == 0, "\(created.error)")
        let built = try Self.runInDeletedFolder(["build", "--site", site], in: folder)
        #expect(built.status == 0, "\(built.error)")
        let relativeOut = try Self.runInDeletedFolder(["build", "--site", site, "--out", "out"], in: folder)
        #expect(relativeOut.status == 1 && relativeOut.error.contains("the current folder cannot be read"), "\(relativeOut.error)")
    }
}

/// A site folder whose path leaves no room for the files in it before the system's limit
/// (`PATH_MAX`, 4,096 bytes): every call on them would fail with "file name too long", once
/// told as "no content/site.yaml" although it was there. Now the length is told, with the fix.
@Suite struct LongSitePathTests {
    @Test func aSiteTooDeepForItsFilesSaysHowLongItsPathIs() throws {
        let folder = try TemporaryFolder()
        // 40 folders of 100 bytes, made one inside the other from a shell (no path that long
        // can be named whole), the last with a site copied in by a relative `tomo init`.
        let name = String(repeating: "d", count: 100)
        let deep = "for i in $(seq 40); do mkdir \(name) && cd \(name) || exit 9; done; exec \"$@\""
        defer { _ = try? runProcess(URL(fileURLWithPath: "/bin/rm"), ["-rf", name], in: folder.url) }
        for arguments in [["init", "."], ["build"]] {
            let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", deep, "sh", tomoBinary().path] + arguments, in: folder.url)
            #expect(result.status == 1, "\(arguments): \(result.error)")
            #expect(result.error.contains("the site folder's path is"), "\(arguments): \(result.error)")
            #expect(result.error.contains("bytes long, and the paths of the files in a site would pass the system's limit of 4096 bytes: move the site to a folder with a shorter path (at most 3584 bytes)"), "\(arguments): \(result.error)")
            _ = try runProcess(URL(fileURLWithPath: "/bin/rm"), ["-rf", name], in: folder.url)
        }
    }
}
