import Foundation
import Testing
import TomoCore
@testable import TomoCLI
import TomoTestSupport

/// `tomo init` makes the site where it is told: DIR, `--site DIR` (before or after the command),
/// or the working folder; never somewhere else.
@Suite struct InitCommandTests {
    func holdsASite(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("content/site.yaml").path)
    }

    @Test(arguments: [["--site", "new-site", "init"], ["init", "--site", "new-site"], ["init", "--site=new-site"], ["init", "new-site"],
                      ["init", "new-site", "--site", "./new-site/"]])
    func initMakesTheSiteInTheFolderItIsGiven(arguments: [String]) throws {
        let work = try TemporaryFolder()
        let result = runTomo(arguments, in: work.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(holdsASite(work.url.appendingPathComponent("new-site")))
        #expect(!holdsASite(work.url), "the working folder stays as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path) == ["new-site"])
        #expect(runTomo(["--site", "new-site", "check"], in: work.url).status == 0)
    }

    @Test func withoutAFolderTheWorkingFolderBecomesTheSite() throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        #expect(holdsASite(work.url))
    }

    /// Version control is told to leave the output, the cache and the commands' lock files alone.
    @Test func theIgnoreListNamesTheOutputTheCacheAndTheLockFiles() throws {
        let work = try TemporaryFolder()
        #expect(runTomo(["init"], in: work.url).status == 0)
        let ignored = try String(contentsOf: work.url.appendingPathComponent(".gitignore"), encoding: .utf8).split(separator: "\n")
        for line in ["/public/", "/.tomo-cache/", "/content/.store.lock", "/content/.files.lock", "/content/.store.json.tmp"] {
            #expect(ignored.contains(Substring(line)), "\(line): \(ignored)")
        }
    }

    @Test func twoDifferentFoldersAreWrongUsageAndNothingIsWritten() throws {
        let work = try TemporaryFolder()
        let result = runTomo(["init", "one", "--site", "two"], in: work.url)
        #expect(result.status == 2)
        #expect(result.error.contains("give one of them"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path).isEmpty)
    }

    /// A file, or a link to nothing, at the folder's name is named as what it is.
    @Test func aFileOrALinkToNothingWhereTheFolderGoesIsSaidSo() throws {
        let work = try TemporaryFolder()
        try work.write("afile", "text")
        let file = runTomo(["init", "afile"], in: work.url)
        #expect(file.status == 1 && file.error.contains("afile is a file, not a folder"), "\(file.error)")
        let link = work.url.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: work.url.appendingPathComponent("nowhere").path)
        let dangling = runTomo(["init", "dangling"], in: work.url)
        #expect(dangling.status == 1 && dangling.error.contains("dangling is a symbolic link to \(work.url.path)/nowhere, which does not exist"), "\(dangling.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path).sorted() == ["afile", "dangling"])
    }
}
