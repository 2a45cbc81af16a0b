import Foundation
import Testing
@testable import TomoCore
import TomoTestSupport

/// The one folder listing every input loader uses tells "missing", "not a folder", "cannot be
/// read" and "empty" apart. Loops of links and links to nothing fail for root as well, so
/// these run with any privileges.
@Suite struct FolderEntriesTests {
    private let folder: TemporaryFolder
    private var root: String { folder.path }

    init() throws {
        folder = try TemporaryFolder(prefix: "tomo-folders")
    }

    private func make(_ relative: String, file text: String? = nil, link target: String? = nil) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if let target {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        } else if let text {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    private func failure(_ relative: String) -> FolderFailure? {
        do {
            _ = try FolderEntries.read(root + "/" + relative, followingLinks: true)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachKindOfFolderIsToldApart() throws {
        try make("empty")
        try make("file", file: "x")
        try make("loop", link: "loop")
        try make("holds-a-dangling-link/gone.yaml", link: "nowhere.yaml")
        try make("holds-a-loop/loop", link: "loop")
        try make("fine/a.yaml", file: "a")
        try make("fine/.hidden", file: "h")

        #expect(try FolderEntries.read(root + "/empty", followingLinks: true).isEmpty)
        #expect(try FolderEntries.read(root + "/fine", followingLinks: true).map(\.name) == ["a.yaml"])
        #expect(failure("missing") == FolderFailure(.missing))
        #expect(failure("file") == FolderFailure(.notAFolder))
        #expect(failure("loop") == FolderFailure(.unreadable(errno: ELOOP)))
        #expect(failure("holds-a-dangling-link") == FolderFailure(.unreadable(errno: ENOENT), entry: "gone.yaml"))
        #expect(failure("holds-a-loop") == FolderFailure(.unreadable(errno: ELOOP), entry: "loop"))
    }

    /// What a content loader lists with: missing is empty (the folder is optional), the rest are
    /// errors that name the folder or the entry; links are followed only inside the site
    /// (`root` here), and a link the rule refuses is left out with an error naming it.
    @Test func anInputFolderIsEmptyOnlyWhenItIsMissing() throws {
        let outsideFolder = try TemporaryFolder(prefix: "tomo-outside")
        let outside = outsideFolder.path
        try make("content/pages", file: "x")
        try make("content/users", link: "users")
        try make("content/posts/alice/x", link: "x")
        try make("content/posts/alice/fine.md", file: "f")
        try make("content/posts/bob", link: outside)
        try make("content/posts/carol", link: "../../shared/carol")
        try make("content/posts/dave", link: ".")
        try make("shared/carol/sunset.md", file: "s")
        func listing(_ relative: String) -> (names: [String], problems: [String]) {
            var problems: [Diagnostic] = []
            let names = FolderEntries.input(relative, in: root, problems: &problems).map(\.name)
            return (names, problems.map(\.description).sorted())
        }
        #expect(listing("content/missing") == ([], []))
        #expect(listing("content/pages") == ([], ["content/pages:1:1: this is a file, but Tomo reads a folder here (content/pages/): move the file away and make a folder of that name"]))
        let loop = "this is a loop of symbolic links (Too many levels of symbolic links): point the link at a file or folder inside the site, or remove it"
        #expect(listing("content/users") == ([], ["content/users:1:1: " + loop]))
        #expect(listing("content/posts/alice") == (["fine.md"], ["content/posts/alice/x:1:1: " + loop]))
        let real = URL(fileURLWithPath: outside).resolvingSymlinksInPath().path
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        #expect(listing("content/posts") == (["alice", "carol"], [
            "content/posts/bob:1:1: this is a symbolic link to \(real), outside the site, and only what is inside the site folder is read: move or copy it into the site folder (and link to it there)",
            "content/posts/dave:1:1: this is a symbolic link to \(realRoot)/content/posts, a folder that holds the link itself, a loop that would be read without end: point it at another folder, or remove it",
        ]))
        #expect(listing("content/posts/carol") == (["sunset.md"], []))
        #expect(listing("content/posts/bob/inside").problems.first?.hasPrefix("content/posts/bob:1:1: this is a symbolic link to \(real), outside the site") == true)
        #expect(try FolderEntries.exists("content/posts/carol/sunset.md", in: root))
        #expect(throws: Diagnostic.self) { try FolderEntries.exists("content/posts/bob/sunset.md", in: root) }
    }

    /// The recursive walk (templates, static files) reports each folder it cannot read and
    /// still lists the rest; a loop of folder links ends.
    @Test func aWalkReportsEveryFolderItCannotRead() throws {
        try make("templates/page.mustache", file: "p")
        try make("templates/parts/card.mustache", file: "c")
        try make("templates/parts/again", link: "..")
        try make("templates/static/broken/loop", link: "loop")
        let walk = FolderEntries.files(under: root + "/templates", display: "templates")
        #expect(walk.files == ["page.mustache", "parts/card.mustache"])
        #expect(walk.problems.map(\.description) == [
            "templates/static/broken/loop:1:1: this is a loop of symbolic links (Too many levels of symbolic links): point the link at a file or folder inside the site, or remove it",
        ])
        #expect(FolderEntries.files(under: root + "/none", display: "none").files == nil)
    }
}
