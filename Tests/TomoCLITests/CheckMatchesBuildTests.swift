import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// `tomo check` runs the build but for the writing, so it fails exactly when `tomo build`
/// fails, with the same errors: over a set of sites each broken in one way, never a check
/// that passes before a build that fails.
@Suite struct CheckMatchesBuildTests {
    static let demoPhoto = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content/users/alice/icon.jpg")

    /// A site that builds: a profile with an icon, a post with its photo, a page and a template of its own.
    static func site(_ change: @Sendable (TemporaryFolder) throws -> Void) throws -> TemporaryFolder {
        let folder = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\nicon: alice/icon.jpg\n",
            "content/posts/alice/sunset.md": "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nEvening.\n",
            "content/pages/about.md": "---\ntitle: About\n---\nHello.\n",
            "templates/page.mustache": "{{<layout}}{{$content}}<h1>{{page.title}}</h1>{{/content}}{{/layout}}",
        ])
        for path in ["content/users/alice/icon.jpg", "content/posts/alice/sunset.jpg"] {
            try folder.copy(demoPhoto, to: path)
        }
        try change(folder)
        return folder
    }

    /// One way to break a site each (and a few that only warn), by name.
    static let breakages: [String: @Sendable (TemporaryFolder) throws -> Void] = [
        "nothing": { _ in },
        "an icon that is a text file": { try $0.write("content/users/alice/icon.jpg", "not a photo\n") },
        "a photo that is a text file": { try $0.write("content/posts/alice/sunset.jpg", "not a photo\n") },
        "a truncated JPEG": { try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 1, 2]).write(to: $0.url.appendingPathComponent("content/users/alice/icon.jpg")) },
        "a photo too tall for any thumbnail": {
            try $0.write("content/posts/alice/tall.png", bytes: PNGBytes.grey(width: 1, height: 16384))
            try $0.write("content/posts/alice/sunset.md", "---\nphoto: tall.png\ndate: 2026-05-01\nalt: A strip\n---\n")
        },
        "a photo cut off part-way": { try $0.write("content/posts/alice/sunset.jpg", bytes: Array(try Data(contentsOf: demoPhoto).prefix(2000))) },
        "a photo that is only a PNG header": {
            try $0.write("content/posts/alice/header.png", bytes: PNGBytes.headerOnly(width: 20000, height: 12000))
            try $0.write("content/posts/alice/sunset.md", "---\nphoto: header.png\ndate: 2026-05-01\nalt: A sunset\n---\n")
        },
        "a site icon cut off part-way": {
            try $0.write("content/brand.jpg", bytes: Array(try Data(contentsOf: demoPhoto).prefix(2000)))
            try $0.write("content/site.yaml", "title: T\nbaseURL: https://example.com/\nicon: brand.jpg\n")
        },
        "an SVG icon": { try $0.write("content/users/alice/icon.jpg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"/>\n") },
        "a missing icon": { try $0.write("content/users/alice.yaml", "name: Alice\nicon: alice/none.jpg\n") },
        "an icon path that is a folder": { try $0.write("content/users/alice.yaml", "name: Alice\nicon: alice\n") },
        "an icon path with a final slash": { try $0.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg/\n") },
        "a photo path with a final slash": { try $0.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg/\ndate: 2026-05-01\nalt: A\n---\n") },
        "a header that is a link to nothing": {
            try FileManager.default.createSymbolicLink(atPath: $0.url.appendingPathComponent("content/users/alice/header.jpg").path, withDestinationPath: "gone.jpg")
            try $0.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\nheader: alice/header.jpg\n")
        },
        "a partial that includes itself": {
            try $0.write("templates/page.mustache", "{{<layout}}{{$content}}{{>loop}}{{/content}}{{/layout}}")
            try $0.write("templates/loop.mustache", "[{{>loop}}]")
        },
        "two partials that include each other": {
            try $0.write("templates/post-card.mustache", "{{>ping}}")
            try $0.write("templates/ping.mustache", "{{>pong}}")
            try $0.write("templates/pong.mustache", "{{>ping}}")
        },
        "a partial that does not exist": { try $0.write("templates/page.mustache", "{{<layout}}{{$content}}{{>nothing}}{{/content}}{{/layout}}") },
        "a section never closed": { try $0.write("templates/page.mustache", "{{#page}}\n") },
        "a template that is not UTF-8": { try Data([0x7B, 0x7B, 0xFF, 0x7D, 0x7D]).write(to: $0.url.appendingPathComponent("templates/page.mustache")) },
        "a broken label file": { try $0.write("templates/labels/en.json", "{\"photoBy\": ") },
        "a static file that is a link to nothing": {
            try FileManager.default.createDirectory(at: $0.url.appendingPathComponent("templates/static"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: $0.url.appendingPathComponent("templates/static/extra.css").path, withDestinationPath: "gone.css")
        },
        "a static file that is a link out of the theme": {
            try $0.write("outside.css", "body { color: red }\n")
            try FileManager.default.createDirectory(at: $0.url.appendingPathComponent("templates/static"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: $0.url.appendingPathComponent("templates/static/extra.css").path, withDestinationPath: "../../outside.css")
        },
        "a folder in place of a theme file": { try $0.write("templates/static/style.css/a.txt", "a\n") },
        "a root static file inside a theme file": { try $0.write("static/static/search.js/a.txt", "a\n") },
        // Named alike by both, though check makes no thumbnail (whose name holds a hash).
        "a root static file in place of the media folder": { try $0.write("static/media", "a\n") },
        "a root static file differing in case from the media folder": { try $0.write("static/Media", "a\n") },
        "a folder named as the profile": {
            try FileManager.default.removeItem(at: $0.url.appendingPathComponent("content/users/alice.yaml"))
            try FileManager.default.createDirectory(at: $0.url.appendingPathComponent("content/users/alice.yaml"), withIntermediateDirectories: true)
        },
        "a folder named as a page": {
            try FileManager.default.removeItem(at: $0.url.appendingPathComponent("content/pages/about.md"))
            try FileManager.default.createDirectory(at: $0.url.appendingPathComponent("content/pages/about.md"), withIntermediateDirectories: true)
        },
        "a folder named as a post": {
            try FileManager.default.removeItem(at: $0.url.appendingPathComponent("content/posts/alice/sunset.md"))
            try FileManager.default.createDirectory(at: $0.url.appendingPathComponent("content/posts/alice/sunset.md"), withIntermediateDirectories: true)
        },
        "a broken store": { try $0.write("content/store.json", "{\"users\": [") },
        "a follow of someone not registered": { try $0.write("content/store.json", storeOfAlice(follows: #"["alice","zed","2026-01-01T00:00:00.000Z"]"#)) },
        "a follow of oneself": { try $0.write("content/store.json", storeOfAlice(follows: #"["alice","alice","2026-01-01T00:00:00.000Z"]"#)) },
        "a like by someone not registered": { try $0.write("content/store.json", storeOfAlice(likes: #""alice/sunset": ["zed"]"#)) },
        "two users with one sequence": { try $0.write("content/store.json", storeOfAlice(users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":1}"#)) },
        "a store section written twice": { try $0.write("content/store.json", storeOfAlice().replacingOccurrences(of: #""hidden": []"#, with: #""hidden": ["alice/sunset"], "hidden": []"#)) },
        "two records of one user": { try $0.write("content/store.json", storeOfAlice(users: #"{"approveFollows":true,"created":"2026-01-01T00:00:00.000Z","handle":"alice","sequence":2}"#)) },
        "a key written twice in a user": { try $0.write("content/store.json", storeOfAlice(users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2,"sequence":3}"#)) },
        "a post's likers written twice": { try $0.write("content/store.json", storeOfAlice(likes: #""alice/sunset": ["alice"], "alice/sunset": []"#)) },
        "a follow across a block": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                follows: #"["alice","bob","2026-01-01T00:00:00.000Z"],["bob","alice","2026-01-01T00:00:00.000Z"]"#,
                blocks: #"{"created":"2026-01-02T00:00:00.000Z","from":"alice","to":"bob"}"#
            ))
        },
        "a follow request across a block": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":true,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                blocks: #"{"created":"2026-01-02T00:00:00.000Z","from":"bob","to":"alice"}"#,
                requests: #"["alice","bob","2026-01-03T00:00:00.000Z"]"#
            ))
        },
        "a like across a block": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                likes: #""alice/sunset": ["bob"]"#,
                blocks: #"{"created":"2026-01-02T00:00:00.000Z","from":"alice","to":"bob"}"#
            ))
        },
        "a like of a blocker's post": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                likes: #""alice/sunset": ["bob"]"#,
                blocks: #"{"created":"2026-01-02T00:00:00.000Z","from":"bob","to":"alice"}"#
            ))
        },
        "a user created yesterday": { try $0.write("content/store.json", storeOfAlice(users: #"{"approveFollows":false,"created":"yesterday","handle":"bob","sequence":2}"#)) },
        "a follow created on a day that does not exist": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                follows: #"["alice","bob","2026-02-30T10:00:00.000Z"]"#
            ))
        },
        "a report without a reason": { try $0.write("content/store.json", storeOfAlice(reports: #"{"created":"2026-01-01T00:00:00.000Z","post":"alice/sunset","reason":"","user":"alice"}"#)) },
        "a gender longer than the commands allow": {
            try $0.write("content/store.json", storeOfAlice(users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","gender":""# + String(repeating: "x", count: 5000) + #"","handle":"bob","sequence":2}"#))
        },
        "two reports of one post by one user": {
            try $0.write("content/store.json", storeOfAlice(reports: #"{"created":"2026-01-01T00:00:00.000Z","post":"alice/sunset","reason":"spam","user":"alice"},{"created":"2026-01-02T00:00:00.000Z","post":"alice/sunset","reason":"not hers","user":"alice"}"#))
        },
        "an accept and a reject pick of one user": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                picks: #"{"created":"2026-01-01T00:00:00.000Z","decision":"accept","from":"alice","to":"bob"},{"created":"2026-01-02T00:00:00.000Z","decision":"reject","from":"alice","to":"bob"}"#
            ))
        },
        "a request beside a follow of one user": {
            try $0.write("content/store.json", storeOfAlice(
                users: #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"bob","sequence":2}"#,
                follows: #"["alice","bob","2026-01-01T00:00:00.000Z"]"#,
                requests: #"["alice","bob","2026-01-02T00:00:00.000Z"]"#
            ))
        },
        "a rename to the same handle": { try $0.write("content/store.json", storeOfAlice(renames: #"{"created":"2026-01-01T00:00:00.000Z","from":"alice","to":"alice"}"#)) },
        "a base URL too long for a QR code": { try $0.write("content/site.yaml", "title: T\nbaseURL: https://example.com/" + String(repeating: "a", count: 3000) + "\n") },
        "a language with a variant twice": { try $0.write("content/site.yaml", "title: T\nbaseURL: https://example.com/\nlanguage: en-abcdefgh-abcdefgh\n") },
        "a bad base URL": { try $0.write("content/site.yaml", "title: T\nbaseURL: https://example.com/?x=1\n") },
        "an empty visibility": { try $0.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A\nvisibility: #private\n---\n") },
        "an escape in a name": { try $0.write("content/users/alice.yaml", "name: \"Alice\\e[31m\"\nicon: alice/icon.jpg\n") },
        "posts of nobody": { try $0.writePost("bob/hello") },
    ]

    /// A store with alice registered (sequence 1) and the records given, as a hand edit
    /// leaves them.
    static func storeOfAlice(
        users: String? = nil, follows: String = "", likes: String = "", renames: String = "",
        blocks: String = "", requests: String = "", picks: String = "", reports: String = ""
    ) -> String {
        let alice = #"{"approveFollows":false,"created":"2026-01-01T00:00:00.000Z","handle":"alice","sequence":1}"#
        return """
            {"blocks": [\(blocks)], "follows": [\(follows)], "hidden": [], "likes": {\(likes)}, "picks": [\(picks)], "renames": [\(renames)],
             "reports": [\(reports)], "requests": [\(requests)], "users": [\(([alice] + (users.map { [$0] } ?? [])).joined(separator: ","))], "version": 3}
            """
    }

    /// The `error:` lines a command printed.
    static func errors(_ result: CommandResult) -> Set<String> {
        Set(result.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") })
    }

    @Test(arguments: breakages.keys.sorted())
    func checkFailsExactlyWhenBuildFailsWithTheSameErrors(breakage: String) throws {
        let site = try Self.site(try #require(Self.breakages[breakage]))
        let check = runTomo(["check"], in: site.url)
        let build = runTomo(["build"], in: site.url)
        #expect(check.status == build.status, "\(breakage): check \(check.status), build \(build.status)\n\(check.error)\n\(build.error)")
        #expect(Self.errors(check) == Self.errors(build), "\(breakage):\ncheck: \(check.error)\nbuild: \(build.error)")
        if build.status != 0 {
            // Every error names its file (a template, a profile line, the store, a root file).
            #expect(Self.errors(build).allSatisfy { $0.contains("content/") || $0.contains("templates/") || $0.contains("template ") || $0.hasPrefix("error: static/") }, "\(build.error)")
        }
        // check wrote nothing: no output and no thumbnails.
        let checkOnly = try Self.site(try #require(Self.breakages[breakage]))
        _ = runTomo(["check"], in: checkOnly.url)
        #expect(!FileManager.default.fileExists(atPath: checkOnly.url.appendingPathComponent("public").path))
        #expect(!FileManager.default.fileExists(atPath: checkOnly.url.appendingPathComponent(".tomo-cache").path))
    }

    @Test func everyBreakageButTheWarningsFails() throws {
        for (breakage, change) in Self.breakages where !["nothing", "a partial that does not exist"].contains(breakage) {
            let site = try Self.site(change)
            #expect(runTomo(["check"], in: site.url).status == 1, "\(breakage)")
        }
    }
    /// An image whose header reads but which the build cannot make (too tall for any WebP
    /// thumbnail, cut off part-way, a PNG that is only its header) is one error at the photo's
    /// line, the same in check and build.
    @Test(arguments: ["a photo too tall for any thumbnail", "a photo cut off part-way", "a photo that is only a PNG header"])
    func anImageTheBuildCannotMakeIsOneErrorAtThePhotosLine(breakage: String) throws {
        let site = try Self.site(try #require(Self.breakages[breakage]))
        var said: [Set<String>] = []
        for command in ["check", "build"] {
            let result = runTomo([command], in: site.url)
            #expect(result.status == 1, "\(command): \(result.error)")
            let errors = Self.errors(result)
            #expect(errors.count == 1 && errors.allSatisfy { $0.hasPrefix("error: content/posts/alice/sunset.md:2:8: content/posts/alice/") }, "\(command): \(result.error)")
            said.append(errors)
        }
        #expect(said[0] == said[1])
    }

    /// After a build, the check takes the images the build made from the cache (and leaves it as
    /// it was); a photo damaged since is decoded again and fails as the next build will.
    @Test func aCheckAfterABuildReadsTheCacheAndFindsWhatChangedSince() throws {
        let site = try Self.site { _ in }
        #expect(runTomo(["build"], in: site.url).status == 0)
        let cache = site.url.appendingPathComponent(".tomo-cache/images")
        func listing() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: cache.path).sorted().map { path in
                let attributes = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(path).path)
                return "\(path) \(attributes[.size] ?? 0) \(String(describing: attributes[.modificationDate]))"
            }
        }
        let before = try listing()
        let check = runTomo(["check"], in: site.url)
        #expect(check.status == 0, "\(check.error)")
        #expect(try listing() == before)
        try site.write("content/posts/alice/sunset.jpg", bytes: Array(try Data(contentsOf: Self.demoPhoto).prefix(2000)))
        let damaged = runTomo(["check"], in: site.url)
        let build = runTomo(["build"], in: site.url)
        #expect(damaged.status == 1 && build.status == 1)
        #expect(Self.errors(damaged) == Self.errors(build) && Self.errors(damaged).count == 1, "check: \(damaged.error)\nbuild: \(build.error)")
    }
}
