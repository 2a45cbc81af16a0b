import Foundation
import Testing

/// The content tests' sites leave nothing behind in the temporary folder.
@Suite struct SiteFixtureTests {
    @Test func aSiteIsRemovedWhenItGoesAway() throws {
        var site: SiteFixture? = try SiteFixture(["content/users/alice.yaml": "name: Alice\n"])
        let path = try #require(site).root.path
        #expect(site?.errors() == [])
        #expect(FileManager.default.fileExists(atPath: path + "/content/users/alice.yaml"))
        site = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
