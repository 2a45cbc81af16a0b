import Testing
@testable import TomoCLI
import TomoTestSupport

/// `tomo serve --host` on anything but a loopback address warns that the preview can be reached
/// from the network. (Tests only listen on loopback: the decision is checked on the address.)
@Suite struct ServeCommandTests {
    @Test(arguments: ["0.0.0.0", "192.168.1.10", "10.0.0.1", "172.16.5.4", "8.8.8.8", "169.254.1.1"])
    func warnsWhenTheAddressIsReachableFromTheNetwork(host: String) throws {
        let warning = try #require(ServeCommand.networkWarning(forHost: host))
        #expect(warning.hasPrefix("--host \(host): the preview is reachable from the network"))
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.2", "127.255.255.254", "localhost", "LOCALHOST"])
    func saysNothingOnLoopback(host: String) {
        #expect(ServeCommand.networkWarning(forHost: host) == nil)
    }

    /// A host the preview cannot listen on is wrong usage, as a bad port is: exit 2 with the
    /// usage line, before anything is built or bound.
    @Test(arguments: ["", "::1", "[::1]", "256.0.0.1", "0.0.0.0:80", "example.com", "127.1"])
    func aHostThatIsNoAddressIsWrongUsage(host: String) throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\n")
        let result = runTomo(["serve", "--host", host, "--port", "1"], in: site.url)
        #expect(result.status == 2, "\(host.debugDescription): \(result.error)")
        #expect(result.error.contains("the host must be an IPv4 address"), "\(result.error)")
        #expect(result.error.contains("usage: tomo serve"), "\(result.error)")
    }
}
