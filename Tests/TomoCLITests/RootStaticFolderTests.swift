import Foundation
import Testing
import TomoTestSupport

/// The root static folder, `static/` beside `content/` and `templates/`: every file in it is
/// published byte for byte at the output's root, dot files and nested folders included; a file
/// that would take the place of a generated one is an error naming both; the site's own
/// robots.txt replaces the default one.
@Suite struct RootStaticFolderTests {
    /// What hosts read at the root, with bytes no text file has.
    static let rootFiles: [String: Data] = [
        "robots.txt": Data("User-agent: *\nDisallow: /private/\n".utf8),
        "favicon.ico": Data([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0xFF, 0xFE, 0x0D, 0x0A, 0x1A]),
        "CNAME": Data("photos.example.com\n".utf8),
        ".nojekyll": Data(),
        "_headers": Data("/*\n  X-Frame-Options: DENY\n".utf8),
        "_redirects": Data("/old /new 301\n".utf8),
        ".well-known/atproto-did": Data("did:plc:abc123\n".utf8),
        "deep/er/still/data.bin": Data((0...255).map { UInt8($0) }),
    ]

    static func site(static files: [String: Data] = rootFiles) throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
        ])
        for (path, data) in files {
            let url = site.url.appendingPathComponent("static/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return site
    }

    @Test func everyFileIsPublishedAtTheRootByteForByte() throws {
        let site = try Self.site()
        let check = runTomo(["check"], in: site.url)
        #expect(check.status == 0, "\(check.output)")
        let build = runTomo(["build"], in: site.url)
        #expect(build.status == 0, "\(build.error)")
        let output = fileTree(site.url.appendingPathComponent("public"))
        for (path, data) in Self.rootFiles {
            #expect(output[path] == data, "\(path)")
        }
        // The site's robots.txt, not the default one with its Sitemap line.
        #expect(output["robots.txt"].map { String(decoding: $0, as: UTF8.self).contains("Sitemap:") } == false)
        #expect(output["index.html"] != nil && output["alice/index.html"] != nil)
        #expect(output == (try fullBuildOutput(of: site.url)).merging([".tomo-output": output[".tomo-output"] ?? Data()]) { $1 })
    }

    @Test func withoutItsOwnRobotsTxtASiteGetsTheDefaultOneWithItsSitemap() throws {
        var files = Self.rootFiles
        files["robots.txt"] = nil
        let site = try Self.site(static: files)
        #expect(runTomo(["build"], in: site.url).status == 0)
        let robots = FileManager.default.contents(atPath: site.url.appendingPathComponent("public/robots.txt").path)
        #expect(robots.map { String(decoding: $0, as: UTF8.self) } == "User-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n")
    }

    /// A root file where tomo makes a file, where it needs a folder, or inside one of its files.
    @Test(arguments: [
        ("index.html", "tomo makes index.html itself (the page of the home template)"),
        ("alice/index.html", "tomo makes alice/index.html itself (the page of the profile template)"),
        ("sitemap.xml", "tomo makes sitemap.xml itself"),
        ("static/style.css", "tomo makes static/style.css itself (the theme's static file templates/static/style.css)"),
        ("alice", "tomo makes the folder alice/ (for alice/"),
        ("feed.xml/x", "inside feed.xml/, but tomo makes feed.xml as a file"),
        // Paths that differ only in letter case: one of two on a host that ignores it.
        ("INDEX.HTML", "differs only in letter case from index.html that tomo makes (the page of the home template)"),
        ("Alice/index.html", "differs only in letter case from alice/index.html that tomo makes"),
        ("Feed.xml", "differs only in letter case from feed.xml that tomo makes"),
        // A file against a folder, either way round.
        ("Alice", "differs only in letter case from the folder alice/ that tomo makes (for alice/"),
        ("Feed.xml/x", "inside Feed.xml/, which differs only in letter case from feed.xml that tomo makes"),
    ])
    func aFileThatCollidesWithAGeneratedOneIsAnErrorNamingBoth(path: String, says: String) throws {
        let site = try Self.site(static: [path: Data("mine\n".utf8)])
        for command in [["check"], ["build"], ["build", "--full"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.error.contains("error: static/\(path):1:1: this file would be published"), "\(command): \(run.error)")
            #expect(run.error.contains(says), "\(command): \(run.error)")
            #expect(run.error.contains("rename or remove this file") || run.error.contains("move this file elsewhere"), "\(command): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path), "nothing is published")
    }

    /// Two files of `static/` that a host takes for one: names that differ only in letter case,
    /// and one name written composed (NFC) and decomposed (NFD), which Linux keeps apart and
    /// tomo, comparing names as text, does not.
    @Test func twoRootFilesAHostTakesForOneAreAnError() throws {
        let cases: [([String], String)] = [
            (["a.txt", "A.txt"], "which differs only in letter case from static/"),
            (["docs/x.txt", "Docs"], "which differs only in letter case from the folder static/docs/"),
            (["caf\u{E9}.txt", "cafe\u{301}.txt"], "is the same text as caf"),
        ]
        for (names, says) in cases {
            // Written one by one: as dictionary keys, the two forms would be one.
            let site = try Self.site(static: [:])
            for name in names {
                let url = site.url.appendingPathComponent("static/" + name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(name.utf8).write(to: url)
            }
            for command in [["check"], ["build"]] {
                let run = runTomo(command, in: site.url)
                #expect(run.status == 1, "\(names) \(command): \(run.output)")
                #expect(run.error.contains(says), "\(names) \(command): \(run.error)")
            }
        }
    }

    /// A name saved decomposed (as macOS tools may) is published composed, as links write it:
    /// renamed to its composed form, it is the same file, and no copy under the old bytes stays.
    @Test func aDecomposedNameIsPublishedComposedAndARenameLeavesNoCopy() throws {
        let decomposed = "cafe\u{301}.txt"
        let composed = "caf\u{E9}.txt"
        let site = try Self.site(static: [decomposed: Data("one\n".utf8)])
        #expect(runTomo(["build"], in: site.url).status == 0)
        let published = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("public").path)
        #expect(published.contains { Array($0.utf8) == Array(composed.utf8) }, "\(published)")
        #expect(!published.contains { Array($0.utf8) == Array(decomposed.utf8) })
        try FileManager.default.moveItem(atPath: site.url.appendingPathComponent("static/" + decomposed).path, toPath: site.url.appendingPathComponent("static/" + composed).path)
        try Data("two\n".utf8).write(to: site.url.appendingPathComponent("static/" + composed))
        #expect(runTomo(["build"], in: site.url).status == 0)
        // Names compared as bytes: as text, the two forms are one name.
        let cafes = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("public").path).filter { $0.hasPrefix("caf") }
        #expect(cafes.map { Array($0.utf8) } == [Array(composed.utf8)], "\(cafes.map(\.unicodeScalars))")
        #expect(FileManager.default.contents(atPath: site.url.appendingPathComponent("public/" + composed).path) == Data("two\n".utf8))
        var built = fileTree(site.url.appendingPathComponent("public"))
        built[".tomo-output"] = nil
        #expect(built == (try fullBuildOutput(of: site.url)).filter { $0.key != ".tomo-output" })
    }

    /// Names no output may hold: control characters, tomo's own bookkeeping names.
    @Test(arguments: ["bad\u{1B}[31mname.txt", "line\nbreak.txt", "tab\there", ".tomo-output", "page.html.tomo-new"])
    func aNameThatCannotBePublishedIsAnError(name: String) throws {
        let site = try Self.site(static: [name: Data("x".utf8)])
        for command in [["check"], ["build"]] {
            let run = runTomo(command, in: site.url)
            #expect(run.status == 1, "\(command) \(name.debugDescription): \(run.output)")
            #expect(run.error.contains("error: static/"), "\(command) \(name.debugDescription): \(run.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public").path))
    }

    @Test func aNamedPipeIsAnErrorNotAFileLeftOut() throws {
        let site = try Self.site(static: [:])
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent("static"), withIntermediateDirectories: true)
        #expect(mkfifo(site.url.appendingPathComponent("static/pipe").path, 0o644) == 0)
        let run = runTomo(["build"], in: site.url)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.error.contains("error: static/pipe:1:1: cannot publish this file: it is a named pipe"), "\(run.error)")
    }

    /// Added, edited, replaced by the default, a folder made a file and a file a folder, and
    /// removed: after each step, the incremental build equals a full one.
    @Test func editsOfRootFilesRebuildAsAFullBuildWould() throws {
        let site = try Self.site(static: ["CNAME": Data("a.example\n".utf8)])
        let output = site.url.appendingPathComponent("public")
        let did = Data("did:plc:one\n".utf8)
        // Each step: paths written (or removed, for nil), in order.
        let steps: [[(String, Data?)]] = [
            [("static/.well-known/atproto-did", did)],
            [("static/CNAME", Data("b.example\n".utf8))],
            [("static/robots.txt", Data("User-agent: *\n".utf8))],
            [("static/robots.txt", nil)],
            [("static/.well-known", nil), ("static/.well-known", did)],
            [("static/.well-known", nil), ("static/.well-known/atproto-did", did)],
            [("static/.well-known", nil)],
            [("static", nil)],
        ]
        #expect(runTomo(["build"], in: site.url).status == 0)
        for step in steps {
            Thread.sleep(forTimeInterval: 0.02)
            for (path, data) in step {
                let url = site.url.appendingPathComponent(path)
                if let data {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try data.write(to: url)
                } else {
                    try FileManager.default.removeItem(at: url)
                }
            }
            let path = step.map(\.0).joined(separator: ", ")
            let run = runTomo(["build"], in: site.url)
            #expect(run.status == 0, "\(path): \(run.error)")
            var built = fileTree(output)
            built[".tomo-output"] = nil
            #expect(built == (try fullBuildOutput(of: site.url)).filter { $0.key != ".tomo-output" }, "after \(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("CNAME").path))
        #expect(FileManager.default.contents(atPath: output.appendingPathComponent("robots.txt").path).map { String(decoding: $0, as: UTF8.self).contains("Sitemap:") } == true)
    }
}

/// A file put into the output by hand: no build deletes it, incremental or full, and a full
/// build names it and says where it belongs; a page tomo made and no longer makes goes in both.
@Suite struct HandPlacedOutputFileTests {
    /// A folder of the root static folder that becomes a file, where the output's folder of
    /// that name holds a file tomo did not make: the build fails before it changes anything
    /// (it once replaced some files, deleted others, then failed "is unchanged"), naming the
    /// file in the way; once it is moved away the next build is a full build's.
    @Test func aFolderThatBecomesAFileWhereTheOutputHoldsAForeignFileChangesNothing() throws {
        let site = try RootStaticFolderTests.site(static: ["z/inner.txt": Data("inner\n".utf8)])
        #expect(runTomo(["build"], in: site.url).status == 0)
        let output = site.url.appendingPathComponent("public")
        try Data("mine\n".utf8).write(to: output.appendingPathComponent("z/hand.txt"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("static/z"))
        try Data("now a file\n".utf8).write(to: site.url.appendingPathComponent("static/z"))
        try site.write("content/users/bob.yaml", "name: Bob\n")
        let before = fileTree(output)
        let refused = runTomo(["build"], in: site.url)
        #expect(refused.status == 1)
        #expect(refused.error.contains("the site now has a file z, and the output has a folder there holding files tomo did not make (z/hand.txt): move them out of the output, then build again"), "\(refused.error)")
        #expect(refused.error.contains("public/ is unchanged"))
        #expect(fileTree(output) == before, "\(differences(fileTree(output), before))")
        try FileManager.default.removeItem(at: output.appendingPathComponent("z/hand.txt"))
        #expect(runTomo(["build"], in: site.url).status == 0)
        var built = fileTree(output)
        built[".tomo-output"] = nil
        #expect(built == (try fullBuildOutput(of: site.url)).filter { $0.key != ".tomo-output" })
    }

    @Test func incrementalAndFullBuildsKeepItAlikeAndDeleteOnlyWhatTomoMade() throws {
        for order in [["build"], ["build", "--full"]] {
            let site = try TemporaryFolder([
                "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
                "content/users/alice.yaml": "name: Alice\n",
                "content/users/bob.yaml": "name: Bob\n",
                "content/pages/about.md": "---\ntitle: About\n---\nHi.\n",
            ])
            let output = site.url.appendingPathComponent("public")
            #expect(runTomo(["build"], in: site.url).status == 0)
            try Data("mine\n".utf8).write(to: output.appendingPathComponent("notes.txt"))
            try FileManager.default.createDirectory(at: output.appendingPathComponent("bob/extra"), withIntermediateDirectories: true)
            try Data("mine too\n".utf8).write(to: output.appendingPathComponent("bob/extra/.keep"))
            try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/pages/about.md"))
            try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/bob.yaml"))
            let run = runTomo(order, in: site.url)
            #expect(run.status == 0, "\(order): \(run.error)")
            #expect(FileManager.default.contents(atPath: output.appendingPathComponent("notes.txt").path) == Data("mine\n".utf8), "\(order)")
            #expect(FileManager.default.contents(atPath: output.appendingPathComponent("bob/extra/.keep").path) == Data("mine too\n".utf8), "\(order)")
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("about/index.html").path), "\(order)")
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("bob/index.html").path), "\(order)")
            // Both builds leave the same output; the full one, which lists it, names the files.
            let full = runTomo(["build", "--full"], in: site.url)
            #expect(full.status == 0)
            #expect(full.error.contains("warning: \(output.path)/ holds 2 files tomo did not make (bob/extra/.keep, notes.txt)"), "\(full.error)")
            #expect(full.error.contains("move it into static/ in the site folder"), "\(full.error)")
            let tree = fileTree(output)
            #expect(tree["notes.txt"] != nil && tree["bob/extra/.keep"] != nil)
            var expected = try fullBuildOutput(of: site.url)
            expected["notes.txt"] = tree["notes.txt"]
            expected["bob/extra/.keep"] = tree["bob/extra/.keep"]
            expected[".tomo-output"] = tree[".tomo-output"]
            #expect(tree == expected, "\(differences(tree, expected))")
        }
    }

    /// `public/` as a checkout of the host's branch (GitHub Pages' gh-pages, see Deploying): its
    /// version-control folder is kept by every build and named in no warning.
    @Test func aVersionControlCheckoutInTheOutputIsLeftAloneAndUnnamed() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
        ])
        let output = site.url.appendingPathComponent("public")
        #expect(runTomo(["build"], in: site.url).status == 0)
        for name in [".git/HEAD", ".git/objects/ab/cdef", ".hg/store/data", ".svn/entries"] {
            let url = output.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("kept\n".utf8).write(to: url)
        }
        try Data("mine\n".utf8).write(to: output.appendingPathComponent("notes.txt"))
        let full = runTomo(["build", "--full"], in: site.url)
        #expect(full.status == 0, "\(full.error)")
        #expect(full.error.contains("holds 1 file tomo did not make (notes.txt)"), "\(full.error)")
        #expect(!full.error.contains(".git") && !full.error.contains(".hg") && !full.error.contains(".svn"), "\(full.error)")
        for name in [".git/HEAD", ".git/objects/ab/cdef", ".hg/store/data", ".svn/entries"] {
            #expect(FileManager.default.contents(atPath: output.appendingPathComponent(name).path) == Data("kept\n".utf8), "\(name)")
        }
    }

    /// A build killed after it wrote new pages but before it saved its state: the next build
    /// still knows those pages are tomo's, and deletes them once the site no longer has them.
    @Test func whatAKilledBuildMadeIsStillKnownAsTomos() throws {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: T\nbaseURL: https://example.com/\n",
            "content/users/alice.yaml": "name: Alice\n",
        ])
        let output = site.url.appendingPathComponent("public")
        #expect(runTomo(["build"], in: site.url).status == 0)
        try site.write("content/users/carol.yaml", "name: Carol\n")
        #expect(runTomo(["build"], in: site.url).status == 0)
        // What a kill after the commit and before the state was saved leaves.
        let state = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent(".tomo-cache/build").path)
        for folder in state { try? FileManager.default.removeItem(atPath: site.url.appendingPathComponent(".tomo-cache/build/\(folder)/state").path) }
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/carol.yaml"))
        let run = runTomo(["build"], in: site.url)
        #expect(run.status == 0, "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("carol/index.html").path))
        #expect(!run.error.contains("tomo did not make"), "\(run.error)")
    }
}

/// `tomo serve` watches the root static folder, made after the start too: new, edited and
/// hidden files are served as the build publishes them, and a collision is shown as an error.
@Suite(.serialized) struct ServeRootStaticFolderTests {
    @Test func filesAddedAndEditedWhileServingAreServed() throws {
        let site = try ServeWatchTests.site()
        let server = try ServedPreview(site: site.url)
        defer { server.stop() }
        #expect(ServeWatchTests.eventually(server, "/alice/", holds: "Alice"), "\(server.errors)")
        try site.write("static/.well-known/atproto-did", "did:plc:first\n")
        try site.write("static/CNAME", "photos.example.com\n")
        try Unprivileged.handOver(site.url)
        #expect(ServeWatchTests.eventually(server, "/.well-known/atproto-did", holds: "did:plc:first"), "\(server.errors)")
        #expect(ServeWatchTests.eventually(server, "/CNAME", holds: "photos.example.com"), "\(server.errors)")
        try site.write("static/.well-known/atproto-did", "did:plc:second\n")
        #expect(ServeWatchTests.eventually(server, "/.well-known/atproto-did", holds: "did:plc:second"), "\(server.errors)")
        try site.write("static/robots.txt", "User-agent: *\nDisallow: /x/\n")
        #expect(ServeWatchTests.eventually(server, "/robots.txt", holds: "Disallow: /x/"), "\(server.errors)")
        try site.write("static/index.html", "mine\n")
        #expect(server.waitForError(containing: "static/index.html:1:1: this file would be published as index.html, but tomo makes index.html itself"), "\(server.errors)")
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("static/index.html"))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("static/robots.txt"))
        #expect(ServeWatchTests.eventually(server, "/robots.txt", holds: "Sitemap: "), "\(server.errors)")
    }
}
