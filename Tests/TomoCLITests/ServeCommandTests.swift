import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// `tomo serve --host` on anything but a loopback address warns that the preview can be reached
/// from the network. (Tests only listen on loopback: the decision is checked on the address.)
@Suite struct ServeCommandTests {
    @Test(arguments: ["0.0.0.0", "192.168.1.10", "10.0.0.1", "172.16.5.4", "8.8.8.8", "169.254.1.1", "::", "[::]", "fd00::2", "::ffff:10.0.0.1"])
    func warnsWhenTheAddressIsReachableFromTheNetwork(host: String) throws {
        let warning = try #require(ServeCommand.networkWarning(forHost: host))
        #expect(warning.hasPrefix("--host \"\(host)\" makes the preview reachable from the network"))
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.2", "127.255.255.254", "localhost", "LOCALHOST", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])
    func saysNothingOnLoopback(host: String) {
        #expect(ServeCommand.networkWarning(forHost: host) == nil)
    }

    /// A host the preview cannot listen on is wrong usage, as a bad port is: exit 2 with the
    /// usage line, before anything is built or bound.
    @Test(arguments: ["", "[::1", "::1]", "[127.0.0.1]", ":::1", "256.0.0.1", "0.0.0.0:80", "[::1]:80", "example.com", "127.1"])
    func aHostThatIsNoAddressIsWrongUsage(host: String) throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\n")
        let result = runTomo(["serve", "--host", host, "--port", "1"], in: site.url)
        #expect(result.status == 2, "\(host.debugDescription): \(result.error)")
        #expect(result.error.contains("the host must be an IPv4 or IPv6 address"), "\(result.error)")
        #expect(result.error.contains("usage: tomo serve"), "\(result.error)")
    }

    /// Each rebuild names the changed files it reacted to (the first three, then how many
    /// more), whether it succeeded or failed: a script that saved a file waits for that line.
    @Test func eachRebuildNamesTheChangedFilesItReactedTo() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        let preview = try LoggedPreview(site: site.url)
        defer { preview.stop() }

        try site.write("content/users/alice.yaml", "name: Alicia\n")
        let rebuilt = try preview.line { $0.contains("content/users/alice.yaml") }
        #expect(rebuilt.hasPrefix("Rebuilt in ") && rebuilt.contains(" ms after content/users/alice.yaml"), "\(rebuilt)")

        try site.write("content/users/alice.yaml", "name: [\n")
        let failed = try preview.line { $0.contains("content/users/alice.yaml") && !$0.hasPrefix("error: ") }
        #expect(failed.hasPrefix("The rebuild after content/users/alice.yaml") && failed.contains(" failed. The last good site is still served"), "\(failed)")

        // A folder of four pages moved in at once is one batch: its files are named, not the
        // folder (named only when nothing else changed).
        let pages = try TemporaryFolder()
        for name in ["a", "b", "c", "d"] { try pages.write("\(name).md", "---\ntitle: \(name)\n---\n") }
        try site.write("content/users/alice.yaml", "name: Alice\n")
        _ = try preview.line { $0.hasPrefix("Rebuilt in ") }
        try FileManager.default.moveItem(at: pages.url, to: site.url.appendingPathComponent("content/pages"))
        let many = try preview.line { $0.hasPrefix("Rebuilt in ") }
        #expect(many.contains(" after content/pages/a.md, content/pages/b.md, content/pages/c.md and 1 more: "), "\(many)")
    }
}
