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

    @Test func twoDifferentFoldersAreWrongUsageAndNothingIsWritten() throws {
        let work = try TemporaryFolder()
        let result = runTomo(["init", "one", "--site", "two"], in: work.url)
        #expect(result.status == 2)
        #expect(result.error.contains("give one of them"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path).isEmpty)
    }
}
