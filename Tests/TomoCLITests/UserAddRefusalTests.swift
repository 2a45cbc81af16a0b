import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// `tomo user add` registers a user only when it can leave them with a profile: a profile it
/// could not write or edit is refused before the store changes, never half done (registered,
/// then failing).
@Suite struct UserAddRefusalTests {
    /// A site with bob registered, and the store's bytes.
    static func site() throws -> (TemporaryFolder, Data) {
        let site = try TemporaryFolder(["content/site.yaml": "title: T\nbaseURL: https://example.com/\n"])
        #expect(runTomo(["user", "add", "bob"], in: site.url).status == 0)
        return (site, try Data(contentsOf: site.url.appendingPathComponent("content/store.json")))
    }

    @Test(arguments: [["user", "add", "dd"], ["user", "add", "dd", "--name", "Y"]])
    func aFolderWhereTheProfileBelongsIsRefusedBeforeTheStoreChanges(command: [String]) throws {
        let (site, store) = try Self.site()
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("content/users/dd.yaml"), withIntermediateDirectories: true)
        let result = runTomo(command, in: site.url)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("error: content/users/dd.yaml:1:1: this is a folder, where dd's profile belongs: move it away, then run `tomo user add dd` again"), "\(result.error)")
        #expect(!result.output.contains("Added"), "\(result.output)")
        #expect(try Data(contentsOf: site.url.appendingPathComponent("content/store.json")) == store)
    }

    /// A link to nothing at the profile's name: no profile can be written there (the write
    /// would fail with "File exists" after the user was registered).
    @Test(arguments: ["dd.yaml", "dd.json"]) func aLinkToNothingWhereTheProfileBelongsIsRefusedBeforeTheStoreChanges(name: String) throws {
        let (site, store) = try Self.site()
        try FileManager.default.createSymbolicLink(atPath: site.url.appendingPathComponent("content/users/" + name).path, withDestinationPath: "gone.yaml")
        let result = runTomo(["user", "add", "dd"], in: site.url)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("error: content/users/\(name):1:1: this is a symbolic link to gone.yaml, which does not exist, where dd's profile belongs: remove the link"), "\(result.error)")
        #expect(!result.output.contains("Added"), "\(result.output)")
        #expect(try Data(contentsOf: site.url.appendingPathComponent("content/store.json")) == store)
    }

    /// A name that shows as nothing is told as the option's problem, before anything changes.
    @Test(arguments: [["user", "add", "dd", "--name", "\u{2800}"], ["user", "set", "bob", "--name", "\u{200B}\u{3164}"]])
    func aNameOfInvisibleCharactersIsWrongUsage(command: [String]) throws {
        let (site, store) = try Self.site()
        let result = runTomo(command, in: site.url)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.error.contains("shows as nothing (white space or characters invisible on their own): give a display name"), "\(result.error)")
        #expect(try Data(contentsOf: site.url.appendingPathComponent("content/store.json")) == store)
    }

    /// As `nobody` (root writes anywhere): a users folder no profile can be written into.
    @Test(arguments: [["user", "add", "alice"], ["user", "add", "bob", "--name", "Robert"]])
    func aUsersFolderThatCannotBeWrittenIsRefusedBeforeTheStoreChanges(command: [String]) throws {
        let (site, store) = try Self.site()
        try Unprivileged.handOver(site.url)
        let users = site.url.appendingPathComponent("content/users")
        #expect(chmod(users.path, 0o555) == 0)
        defer { chmod(users.path, 0o755) }
        let result = try Unprivileged.tomo(command, in: site.url)
        let file = "content/users/\(command[2]).yaml"
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("error: content/users/:1:1: cannot write \(file) in this folder (Permission denied): make it writable (chmod u+wx content/users), then run `tomo user add \(command[2])` again"), "\(result.error)")
        #expect(!result.output.contains("Added"), "\(result.output)")
        #expect(try Data(contentsOf: site.url.appendingPathComponent("content/store.json")) == store)
    }
}
