import Foundation
import Testing
@testable import TomoCLI
import TomoTestSupport

/// The demo's small real JPEG, for icons and photos.
private let demoPhoto = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("content/users/alice/icon.jpg")

/// A small site with a file in every folder a build lists: profiles with an image folder,
/// a page, posts, templates with a static file, a root static folder with a hidden one.
private func writeListedSite(in folder: TemporaryFolder) throws {
    try folder.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
    try folder.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\n")
    try folder.write("content/users/bob.yaml", "name: Bob\n")
    try folder.write("content/pages/about.md", "---\ntitle: About\n---\nHello.\n")
    try folder.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nEvening.\n")
    try folder.write("templates/page.mustache", "{{<layout}}{{$content}}<h1>{{page.title}}</h1>{{/content}}{{/layout}}")
    try folder.write("templates/static/extra.css", "body { color: black }\n")
    try folder.write("templates/labels/en.json", "{\"photoBy\": \"Photo by {name}\"}\n")
    try folder.write("static/CNAME", "example.com\n")
    try folder.write("static/.well-known/atproto-did", "did:plc:alice\n")
    for path in ["content/users/alice/icon.jpg", "content/posts/alice/sunset.jpg"] {
        try folder.copy(demoPhoto, to: path)
    }
}

/// Every folder a build lists, each with the files whose pages it would lose if read as empty.
private let listedFolders = [
    "content/users", "content/users/alice", "content/pages", "content/posts", "content/posts/alice",
    "templates", "templates/static", "templates/labels", "static",
]

/// Every file under `folder` with its bytes.
private func snapshot(_ folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
        files[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] = FileManager.default.contents(atPath: url.path)
    }
    return files
}

@Suite struct UnreadableFolderTests {
    /// `post list` over a posts folder it cannot read says so, and not that there are no posts.
    @Test func postListOverAnUnreadablePostsFolderSaysSo() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        #expect(runTomo(["user", "add", "alice"], in: folder.url).status == 0)
        let posts = folder.url.appendingPathComponent("content/posts/alice")
        try FileManager.default.removeItem(at: posts)
        try FileManager.default.createSymbolicLink(atPath: posts.path, withDestinationPath: "alice")
        for arguments in [["post", "list"], ["post", "list", "alice"]] {
            let listed = runTomo(arguments, in: folder.url)
            #expect(listed.status == 1 && listed.error.contains("error: content/posts/alice"), "\(arguments): \(listed.error)")
            #expect(!listed.output.contains("no posts yet"), "\(arguments): \(listed.output)")
        }
    }

    /// A folder the build cannot list (a loop of links: unreadable even for root) or a file in
    /// place of the folder fails `build` and `check` with the folder's path, and leaves the
    /// last output as it was. Read as empty, each would have deleted pages.
    @Test func everyListedFolderThatCannotBeReadFailsTheBuildAndKeepsTheOutput() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        let first = runTomo(["build"], in: folder.url)
        #expect(first.status == 0, "\(first.error)")
        let output = folder.url.appendingPathComponent("public")
        let built = snapshot(output)
        #expect(built["about/index.html"] != nil && built["alice/posts/sunset/index.html"] != nil && built["static/extra.css"] != nil && built[".well-known/atproto-did"] != nil)
        let aside = try TemporaryFolder()
        for path in listedFolders {
            for replacement in ["a loop of links", "a file"] {
                let url = folder.url.appendingPathComponent(path)
                let saved = aside.url.appendingPathComponent("saved")
                try FileManager.default.moveItem(at: url, to: saved)
                if replacement == "a file" {
                    try "not a folder\n".write(to: url, atomically: false, encoding: .utf8)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: url.lastPathComponent)
                }
                for command in ["build", "check"] {
                    let result = runTomo([command], in: folder.url)
                    #expect(result.status == 1, "\(command) with \(path) as \(replacement): \(result.output)")
                    #expect(result.error.contains("error: \(path)"), "\(command) with \(path) as \(replacement): \(result.error)")
                }
                #expect(snapshot(output) == built, "\(path) as \(replacement) changed the output")
                try FileManager.default.removeItem(at: url)
                try FileManager.default.moveItem(at: saved, to: url)
            }
        }
        #expect(runTomo(["build"], in: folder.url).status == 0)
    }

    /// A file or folder whose name is not UTF-8 (`q\xFF.md`), in any folder a build lists, is an
    /// error of `build` and `check` at its name, and the output stays as it was: it was left
    /// out without a word (a post, a profile or a static file not published). A profile's image
    /// folder is not listed (only the images the profile names are read), so there it is not.
    @Test func aNameThatIsNotUTF8IsAnErrorAtItsName() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        #expect(runTomo(["build"], in: folder.url).status == 0)
        let output = folder.url.appendingPathComponent("public")
        let built = snapshot(output)
        for path in listedFolders + ["static/.well-known"] {
            for (kind, suffix) in [("file", ".md"), ("folder", "")] {
                let name = Array((folder.path + "/" + path + "/q").utf8) + [0xFF] + Array(suffix.utf8) + [0]
                let made = name.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { kind == "file" ? creat($0.baseAddress!, 0o644) : mkdir($0.baseAddress!, 0o755) }
                }
                #expect(made >= 0, "\(path)")
                if kind == "file" { close(made) }
                for command in ["build", "check"] {
                    let result = runTomo([command], in: folder.url)
                    if path == "content/users/alice" {
                        #expect(result.status == 0, "\(command) with a \(kind) in \(path): \(result.error)")
                        continue
                    }
                    #expect(result.status == 1, "\(command) with a \(kind) in \(path): \(result.output)")
                    #expect(result.error.contains("error: \(path)/q\u{FFFD}\(suffix):1:1: this name is not UTF-8 text"), "\(command) with a \(kind) in \(path): \(result.error)")
                }
                #expect(snapshot(output) == built, "a \(kind) in \(path) changed the output")
                name.withUnsafeBufferPointer { buffer in
                    _ = buffer.withMemoryRebound(to: CChar.self) { kind == "file" ? unlink($0.baseAddress!) : rmdir($0.baseAddress!) }
                }
            }
        }
        #expect(runTomo(["build"], in: folder.url).status == 0)
    }

    /// The same with real permissions: `chmod 000` on each folder, and tomo run as `nobody`
    /// (root reads any folder, so as root the binary is started through setpriv).
    @Test func aFolderWithoutPermissionsFailsTheRealBinary() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        try Unprivileged.handOver(folder.url)
        let first = try Unprivileged.tomo(["build"], in: folder.url)
        #expect(first.status == 0, "\(first.error)")
        let output = folder.url.appendingPathComponent("public")
        let built = snapshot(output)
        // A hidden folder in the root static folder too (a file in its place is just a file).
        for path in listedFolders + ["static/.well-known"] {
            let url = folder.url.appendingPathComponent(path)
            #expect(chmod(url.path, 0) == 0)
            for command in ["build", "check"] {
                let result = try Unprivileged.tomo([command], in: folder.url)
                #expect(result.status == 1, "\(command) with \(path) unreadable: \(result.output)")
                #expect(result.error.contains("error: \(path)"), "\(command) with \(path) unreadable: \(result.error)")
            }
            #expect(snapshot(output) == built, "an unreadable \(path) changed the output")
            #expect(chmod(url.path, 0o755) == 0)
        }
        #expect(try Unprivileged.tomo(["build"], in: folder.url).status == 0)
    }

    /// An output folder whose names cannot be read may hold anything: the build refuses it
    /// rather than write its marker there (which would make the files in it tomo's to delete).
    @Test func anOutputFolderThatCannotBeListedIsNeitherWrittenNorTaken() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        try folder.write("out/mine.txt", "not tomo's\n")
        try Unprivileged.handOver(folder.url)
        let out = folder.url.appendingPathComponent("out")
        // Writable and searchable, not readable: files can be made in it, its names not seen.
        #expect(chmod(out.path, 0o333) == 0)
        let result = try Unprivileged.tomo(["build", "--out", "out"], in: folder.url)
        #expect(chmod(out.path, 0o755) == 0)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("error: cannot read the output folder \(out.path) (Permission denied)"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["mine.txt"])

        try FileManager.default.removeItem(at: out)
        try FileManager.default.createSymbolicLink(atPath: out.path, withDestinationPath: "out")
        let loop = runTomo(["build", "--out", "out"], in: folder.url)
        #expect(loop.status == 1, "\(loop.output)")
        #expect(loop.error.contains("error: cannot read the output folder \(out.path) (Too many levels of symbolic links)"), "\(loop.error)")
    }

    /// The build's first step stamps the input files to see whether anything changed: a folder
    /// that was empty at the last build and cannot be read now is not "nothing changed".
    @Test func anUnreadableFolderIsNotAnEmptyOneToTheChangeCheck() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/pages/about.md"))
        try Unprivileged.handOver(folder.url)
        #expect(try Unprivileged.tomo(["build"], in: folder.url).status == 0)
        try folder.write("content/pages/about.md", "---\ntitle: About\n---\nHello.\n")
        let pages = folder.url.appendingPathComponent("content/pages")
        #expect(chmod(pages.path, 0) == 0)
        let result = try Unprivileged.tomo(["build"], in: folder.url)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("error: content/pages/:1:1: cannot read this folder"), "\(result.error)")
        #expect(chmod(pages.path, 0o755) == 0)
    }
}

/// A store command in a site whose `content/` folder it may not write says that, and how to
/// fix it: the reason was once read after the message's path was put together, which changed
/// it to "No such file or directory".
@Suite struct UnwritableContentFolderTests {
    @Test func aStoreCommandSaysTheContentFolderIsNotWritable() throws {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        #expect(runTomo(["user", "add", "alice"], in: folder.url).status == 0)
        #expect(runTomo(["user", "add", "bob"], in: folder.url).status == 0)
        let store = try Data(contentsOf: folder.url.appendingPathComponent("content/store.json"))
        try Unprivileged.handOver(folder.url)
        let content = folder.url.appendingPathComponent("content")
        // With the store's lock file there, and without it (which must be made there too).
        for lockThere in [true, false] {
            if !lockThere { unlink(content.appendingPathComponent(".store.lock").path) }
            #expect(chmod(content.path, 0o555) == 0)
            let result = try Unprivileged.tomo(["follow", "alice", "bob"], in: folder.url)
            #expect(chmod(content.path, 0o755) == 0)
            #expect(result.status == 1, "\(result.output)")
            #expect(result.error.contains("permission denied: make the folder content/ writable (chmod u+w content)"), "lock there: \(lockThere): \(result.error)")
            #expect(try Data(contentsOf: content.appendingPathComponent("store.json")) == store)
        }
    }
}

/// Runs the real binary as a user without privileges: as itself when it is not root, as
/// `nobody` through util-linux's setpriv when it is.
enum Unprivileged {
    static var isRoot: Bool { getuid() == 0 }
    static let setpriv = "/usr/bin/setpriv"

    /// Gives `folder` and everything in it to `nobody`, so that it can build there.
    static func handOver(_ folder: URL) throws {
        guard isRoot else { return }
        var paths = [folder.path]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String { paths.append(folder.path + "/" + relative) }
        for path in paths { #expect(lchown(path, 65534, 65534) == 0, "chown \(path)") }
    }

    static func tomo(_ arguments: [String], in directory: URL) throws -> CommandResult {
        let (executable, words) = try command(arguments)
        return try runProcess(executable, words, in: directory)
    }

    /// The executable and arguments that run `tomo ARGUMENTS` without privileges.
    static func command(_ arguments: [String]) throws -> (URL, [String]) {
        guard isRoot else { return (tomoBinary(), arguments) }
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "running as root, these tests need \(setpriv) (util-linux) to drop to nobody")
        return (URL(fileURLWithPath: setpriv), ["--reuid=65534", "--regid=65534", "--clear-groups", tomoBinary().path] + arguments)
    }
}

/// The store's commands that read or change a user's files: a folder they cannot read is an
/// error naming it, before the store or any file changes, never "no files" (`user show`
/// counting no posts, `user rm` forgetting the user and leaving the profile it could not see).
@Suite struct UnreadableFolderStoreCommandTests {
    static let userCommands = [["user", "rm", "alice", "--yes"], ["user", "rename", "alice", "anna"]]
    static let postCommands = [
        ["user", "show", "alice"], ["post", "rm", "alice/sunset", "--yes"], ["like", "bob", "alice/sunset"], ["post", "hide", "alice/sunset"],
    ]
    /// Each folder, and the commands that read it.
    static let readers = [
        ("content/users", userCommands),
        ("content/posts", userCommands + postCommands),
        ("content/posts/alice", userCommands + postCommands),
    ]

    /// A site with alice's profile, images and a post, and bob; every file of its content.
    static func site() throws -> (TemporaryFolder, [String: Data]) {
        let folder = try TemporaryFolder()
        try writeListedSite(in: folder)
        for handle in ["alice", "bob"] { #expect(runTomo(["user", "add", handle], in: folder.url).status == 0) }
        return (folder, snapshot(folder.url.appendingPathComponent("content")))
    }

    @Test func aLoopOfLinksInPlaceOfAUsersFolderStopsEveryCommandBeforeAnythingChanges() throws {
        for (path, commands) in Self.readers {
            for command in commands {
                let (folder, content) = try Self.site()
                let url = folder.url.appendingPathComponent(path)
                try FileManager.default.moveItem(at: url, to: folder.url.appendingPathComponent("saved"))
                try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: url.lastPathComponent)
                let result = runTomo(command, in: folder.url)
                #expect(result.status == 1, "\(command) with \(path) a loop: \(result.output)")
                #expect(result.error.contains("error: \(path)"), "\(command) with \(path) a loop: \(result.error)")
                try FileManager.default.removeItem(at: url)
                try FileManager.default.moveItem(at: folder.url.appendingPathComponent("saved"), to: url)
                #expect(snapshot(folder.url.appendingPathComponent("content")) == content, "\(command) with \(path) a loop changed the content or the store")
            }
        }
    }

    /// With real permissions (as `nobody` when run as root): a folder below the user's that
    /// cannot be read stops `user rm` before the store forgets the user, and `user rename`
    /// before it renames them.
    @Test func userRmAndRenameStopBeforeTheStoreWhenAFolderOfTheUserCannotBeRead() throws {
        for path in ["content/users/alice", "content/posts/alice", "content/users"] {
            let (folder, content) = try Self.site()
            try Unprivileged.handOver(folder.url)
            let url = folder.url.appendingPathComponent(path)
            #expect(chmod(url.path, 0) == 0)
            let show = try Unprivileged.tomo(["user", "show", "alice"], in: folder.url)
            let remove = try Unprivileged.tomo(["user", "rm", "alice", "--yes"], in: folder.url)
            let rename = try Unprivileged.tomo(["user", "rename", "alice", "anna"], in: folder.url)
            #expect(chmod(url.path, 0o755) == 0)
            #expect(remove.status == 1, "user rm with \(path) unreadable: \(remove.output)")
            #expect(remove.error.contains("error: \(path)"), "user rm with \(path) unreadable: \(remove.error)")
            #expect(rename.status == 1, "user rename with \(path) unreadable: \(rename.output)")
            #expect(rename.error.contains("error: \(path)"), "user rename with \(path) unreadable: \(rename.error)")
            #expect(snapshot(folder.url.appendingPathComponent("content")) == content, "user rm with \(path) unreadable changed the content or the store")
            if path.hasPrefix("content/posts") {
                #expect(show.status == 1 && show.error.contains("error: \(path)"), "user show with \(path) unreadable: \(show.output)\(show.error)")
            }
        }
    }
}
