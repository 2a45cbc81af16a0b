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
}


/// Names with `#` and `\` are published by `tomo build`; the preview serves them when the
/// request escapes them (`%23`, `%5C`), and still refuses them raw.
@Suite struct EscapedNameTests {
    @Test func servesNamesWithHashAndBackslashWhenEscaped() throws {
        let site = ServedSite(files: ["x#y.txt": Array("hash".utf8), "a\\b.txt": Array("backslash".utf8)])
        try withServer(site: site) { server throws in
            let hash = try fetch(server.port, "/x%23y.txt")
            #expect(hash.status == 200)
            #expect(hash.text == "hash")
            let backslash = try fetch(server.port, "/a%5Cb.txt")
            #expect(backslash.status == 200)
            #expect(backslash.text == "backslash")
            #expect(try fetch(server.port, "/a%5cb.txt").text == "backslash")
            // Raw, a backslash is a separator to browsers and `#` starts a fragment: refused.
            #expect(try fetch(server.port, "/a\\b.txt").status == 400)
            #expect(try fetch(server.port, "/x#y.txt").status == 400)
            // Control characters stay refused, escaped or not.
            #expect(try fetch(server.port, "/x%0Ay.txt").status == 400)
            #expect(try fetch(server.port, "/x%7Fy.txt").status == 400)
        }
    }
}
