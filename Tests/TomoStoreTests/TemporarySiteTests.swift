import Foundation
import Testing
import TomoCore

/// The store tests' sites leave nothing behind in the temporary folder.
@Suite struct TemporarySiteTests {
    @Test func aSiteIsRemovedWhenItGoesAway() throws {
        var site: TemporarySite? = try TemporarySite()
        let path = try #require(site).url.path
        try site?.addUsers("alice")
        #expect(FileManager.default.fileExists(atPath: path + "/content/store.json"))
        site = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
