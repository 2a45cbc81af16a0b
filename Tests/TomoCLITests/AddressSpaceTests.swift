import Foundation
import Testing
import TomoTestSupport

/// Under a small `ulimit -v` a build once waited for ever for a thread that could not start,
/// holding the output's lock, or libvips aborted: the commands that build say what they need
/// instead, and the store's commands, which need little, still run.
@Suite struct AddressSpaceTests {
    @Test func aBuildUnderTooSmallAnAddressSpaceSaysWhatItNeeds() throws {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        try site.write("content/users/alice.yaml", "name: Alice\n")
        let limited = "ulimit -v 300000 && exec \"$@\""
        for command in ["build", "check"] {
            let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", limited, "sh", tomoBinary().path, command], in: site.url)
            #expect(result.status == 1, "\(command): \(result.error)")
            #expect(result.error.contains("error: tomo \(command) needs at least 1024 MB of address space, and `ulimit -v` allows 292 MB: raise the limit (ulimit -v unlimited, or at least 1048576), then run it again"), "\(command): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
        let listed = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", limited, "sh", tomoBinary().path, "user", "list"], in: site.url)
        #expect(listed.status == 0, "\(listed.error)")
    }
}
