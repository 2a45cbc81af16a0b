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
    }
}
