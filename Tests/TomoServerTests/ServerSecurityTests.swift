import Foundation
import Testing
import TomoServer
import TomoTestSupport

/// Nothing outside the snapshot can be named, however the path is spelled.
@Suite struct ServerSecurityTests {
    @Test(arguments: [
        "/../etc/passwd",
        "/alice/../../etc/passwd",
        "/%2e%2e/",
        "/%2E%2E/etc/passwd",
        "/a%2f..%2f..",
        "/alice/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/%00",
        "/index.html%00.png",
        "//etc/passwd",
        "/alice\\..\\..\\etc\\passwd",
        "/alice/%5c..%5cetc",
        "/%zz",
        "/%",
        "/%ff%fe",
        "/./index.html",
        "etc/passwd",
        "http://127.0.0.1/etc/passwd",
    ])
    func refusesTraversalAndMalformedPaths(target: String) throws {
        try withServer { server throws in
            let reply = try fetch(server.port, target)
            #expect(reply.status == 400 || reply.status == 404, "\(target) got \(reply.status)")
            #expect(!reply.text.contains("root:"))
        }
    }

    @Test func decodesEscapesExactlyOnce() throws {
        let site = ServedSite(files: ["a b/index.html": Array("space".utf8), "%41.txt": Array("literal".utf8)])
        try withServer(site: site) { server throws in
            #expect(try fetch(server.port, "/a%20b/").text == "space")
            // %2541 decodes once to "%41", the literal file name, never on to "A".
            #expect(try fetch(server.port, "/%2541.txt").text == "literal")
            #expect(try fetch(server.port, "/A.txt").status == 404)
        }
    }

    @Test func servesUTF8Paths() throws {
        let site = ServedSite(files: ["日本/index.html": Array("ja".utf8)])
        try withServer(site: site) { server throws in
            #expect(try fetch(server.port, "/%E6%97%A5%E6%9C%AC/").text == "ja")
        }
    }

    @Test func loadsAFolderWithoutSymlinksThatLeaveIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-served-\(UUID().uuidString)")
        let outside = root.appendingPathComponent("outside")
        let site = root.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: site.appendingPathComponent("alice"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try Data("page".utf8).write(to: site.appendingPathComponent("alice/index.html"))
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("leak.txt").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("outside").path,
                                                   withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("same.html").path,
                                                   withDestinationPath: "alice/index.html")
        let served = try ServedSite(contentsOf: site)
        #expect(served.files.keys.sorted() == ["alice/index.html", "same.html"])
        try withServer(site: served) { server throws in
            #expect(try fetch(server.port, "/leak.txt").status == 404)
            #expect(try fetch(server.port, "/outside/secret.txt").status == 404)
            #expect(try fetch(server.port, "/same.html").text == "page")
        }
    }
}
