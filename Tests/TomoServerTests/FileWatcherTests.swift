import Foundation
import Synchronization
import Testing
import TomoCore
import TomoServer
import TomoTestSupport

@Suite struct FileWatcherTests {
    final class BatchRecorder: Sendable {
        let batches = Mutex<[[String]]>([])
    }

    /// A temporary folder and a watcher on it that records every batch.
    final class Fixture: Sendable {
        private let folder: TemporaryFolder
        let root: URL
        let recorder = BatchRecorder()
        let watcher: FileWatcher

        init() throws {
            folder = try TemporaryFolder(prefix: "tomo-watch")
            root = folder.url.resolvingSymlinksInPath()
            try FileManager.default.createDirectory(at: root.appendingPathComponent("users"), withIntermediateDirectories: true)
            let recorder = self.recorder
            let rootPath = root.path
            // Files closed at once wait as long as open ones: two saves in a row make one batch
            // on a busy machine too.
            watcher = try FileWatcher(folders: [root], debounce: .milliseconds(30), settle: .milliseconds(30)) { urls in
                recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(rootPath.count + 1)) }) }
            }
        }

        deinit {
            watcher.stop()
        }

        func write(_ relativePath: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(relativePath))
        }

        /// Waits (up to 3 s) for a batch that contains every path in `paths`; returns it.
        func batch(containing paths: Set<String>) -> [String]? {
            for _ in 0..<300 {
                let found = recorder.batches.withLock { recorded -> [String]? in
                    guard let index = recorded.firstIndex(where: { paths.isSubset(of: $0) }) else { return nil }
                    let batch = recorded[index]
                    recorded.removeSubrange(...index)
                    return batch
                }
                if let found { return found }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }
    }

    @Test func reportsCreatedModifiedAndDeletedFiles() throws {
        let fixture = try Fixture()
        try fixture.write("users/alice.yaml", "name: Alice")
        #expect(fixture.batch(containing: ["users/alice.yaml"]) != nil)
        try fixture.write("users/alice.yaml", "name: Alice B")
        #expect(fixture.batch(containing: ["users/alice.yaml"]) != nil)
        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("users/alice.yaml"))
        #expect(fixture.batch(containing: ["users/alice.yaml"]) != nil)
    }

    @Test func reportsAFileWrittenTwiceInOneBatch() throws {
        let fixture = try Fixture()
        try fixture.write("site.yaml", "title: A")
        try fixture.write("site.yaml", "title: B")
        let batch = fixture.batch(containing: ["site.yaml"])
        #expect(batch == ["site.yaml"])
        Thread.sleep(forTimeInterval: 0.1)
        #expect(fixture.recorder.batches.withLock { $0.isEmpty })
    }

    @Test func reportsAnAtomicSaveByRename() throws {
        let fixture = try Fixture()
        try fixture.write("users/bob.yaml", "name: Bob")
        _ = fixture.batch(containing: ["users/bob.yaml"])
        // What editors do: write a temporary file beside the original, then rename it over.
        try fixture.write("users/.bob.yaml.swp", "name: Bobby")
        let fromPath = fixture.root.appendingPathComponent("users/.bob.yaml.swp").path
        let toPath = fixture.root.appendingPathComponent("users/bob.yaml").path
        #expect(rename(fromPath, toPath) == 0)
        #expect(fixture.batch(containing: ["users/bob.yaml"]) != nil)
    }

    @Test func watchesNewSubFoldersAndReportsWhatTheyHold() throws {
        let fixture = try Fixture()
        try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent("posts/alice/2026"),
                                                withIntermediateDirectories: true)
        try fixture.write("posts/alice/2026/first.md", "---")
        #expect(fixture.batch(containing: ["posts", "posts/alice/2026/first.md"]) != nil)
        // The new folders are watched from now on.
        try fixture.write("posts/alice/2026/first.md", "--- changed")
        #expect(fixture.batch(containing: ["posts/alice/2026/first.md"]) != nil)
        try fixture.write("posts/alice/second.md", "---")
        #expect(fixture.batch(containing: ["posts/alice/second.md"]) != nil)
    }

    @Test func followsFoldersRenamedAndDeleted() throws {
        let fixture = try Fixture()
        try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent("pages"), withIntermediateDirectories: true)
        try fixture.write("pages/about.md", "---")
        _ = fixture.batch(containing: ["pages/about.md"])
        try FileManager.default.moveItem(at: fixture.root.appendingPathComponent("pages"),
                                         to: fixture.root.appendingPathComponent("drafts"))
        #expect(fixture.batch(containing: ["pages", "drafts", "drafts/about.md"]) != nil)
        try fixture.write("drafts/about.md", "--- again")
        #expect(fixture.batch(containing: ["drafts/about.md"]) != nil)
        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("drafts"))
        #expect(fixture.batch(containing: ["drafts"]) != nil)
    }

    @Test func refusesAFolderWithNowhereToAppear() {
        #expect(throws: (any Error).self) {
            try FileWatcher(folders: [URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/inner")]) { _ in }
        }
    }

    /// A watched folder that does not exist yet is watched, whole, from when it appears; and
    /// again after it was deleted and made anew.
    @Test func watchesAFolderThatAppearsLater() throws {
        let fixture = try Fixture()
        let later = fixture.root.appendingPathComponent("later")
        let recorder = BatchRecorder()
        let rootPath = fixture.root.path
        let watcher = try FileWatcher(folders: [later], debounce: .milliseconds(30)) { urls in
            recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(rootPath.count + 1)) }) }
        }
        defer { watcher.stop() }
        func batch(containing paths: Set<String>) -> Bool {
            for _ in 0..<300 {
                if recorder.batches.withLock({ $0.contains { paths.isSubset(of: $0) } }) {
                    recorder.batches.withLock { $0.removeAll() }
                    return true
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        try FileManager.default.createDirectory(at: later.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try fixture.write("later/deep/page.md", "one")
        #expect(batch(containing: ["later", "later/deep/page.md"]))
        try fixture.write("later/deep/page.md", "two")
        #expect(batch(containing: ["later/deep/page.md"]))
        try FileManager.default.removeItem(at: later)
        #expect(batch(containing: ["later"]))
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try fixture.write("later/again.md", "three")
        #expect(batch(containing: ["later/again.md"]))
    }

    /// Links are watched as what they lead to (the build reads through them), and a change is
    /// reported under every name that reaches it: a link to a folder watched under its own name,
    /// a link to a file (whose target's folder is watched for it), a link made while watching.
    @Test func reportsAChangeUnderEveryNameThatReachesIt() throws {
        let rootFolder = try TemporaryFolder(prefix: "tomo-watch"), outsideFolder = try TemporaryFolder(prefix: "tomo-watch")
        let root = rootFolder.url.resolvingSymlinksInPath(), outside = outsideFolder.url.resolvingSymlinksInPath()
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("posts/bob"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try Data("bio".utf8).write(to: root.appendingPathComponent("shared/bio.yaml"))
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/alice").path, withDestinationPath: outside.path)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/again").path, withDestinationPath: "../posts")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/carol").path, withDestinationPath: "bob")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/bob/bio.yaml").path, withDestinationPath: "../../shared/bio.yaml")
        let recorder = BatchRecorder()
        let problems = Mutex<[String]>([])
        let rootPath = root.path
        let watcher = try FileWatcher(folders: [root.appendingPathComponent("posts")], debounce: .milliseconds(30), onUnwatched: { folder, problem in
            problems.withLock { $0.append(folder.path + ": " + problem) }
        }) { urls in
            recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(rootPath.count + 1)) }) }
        }
        defer { watcher.stop() }
        func reported(_ paths: Set<String>) -> Bool {
            for _ in 0..<300 {
                if recorder.batches.withLock({ paths.isSubset(of: Set($0.joined())) }) {
                    recorder.batches.withLock { $0.removeAll() }
                    return true
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        #expect(problems.withLock { $0 }.isEmpty)
        try Data("x".utf8).write(to: outside.appendingPathComponent("sunset.md"))
        #expect(reported(["posts/alice/sunset.md"]), "\(recorder.batches.withLock { $0 })")
        try Data("x".utf8).write(to: root.appendingPathComponent("posts/bob/dusk.md"))
        #expect(reported(["posts/bob/dusk.md", "posts/carol/dusk.md", "posts/again/bob/dusk.md"]), "\(recorder.batches.withLock { $0 })")
        try Data("edited".utf8).write(to: root.appendingPathComponent("shared/bio.yaml"))
        #expect(reported(["posts/bob/bio.yaml", "posts/carol/bio.yaml"]), "\(recorder.batches.withLock { $0 })")
        // A link made while watching, then pointed elsewhere: the old target is no longer its.
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/dave").path, withDestinationPath: "bob")
        #expect(reported(["posts/dave", "posts/dave/dusk.md"]), "\(recorder.batches.withLock { $0 })")
        try manager.removeItem(at: root.appendingPathComponent("posts/dave"))
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("posts/dave").path, withDestinationPath: outside.path)
        #expect(reported(["posts/dave", "posts/dave/sunset.md"]), "\(recorder.batches.withLock { $0 })")
        try Data("y".utf8).write(to: root.appendingPathComponent("posts/bob/dusk.md"))
        #expect(reported(["posts/bob/dusk.md", "posts/carol/dusk.md"]))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!recorder.batches.withLock { Set($0.joined()) }.contains("posts/dave/dusk.md"))
        // Whichever of bob and carol it was watched under, the folder stays watched without
        // the link.
        try manager.removeItem(at: root.appendingPathComponent("posts/carol"))
        #expect(reported(["posts/carol"]))
        try Data("z".utf8).write(to: root.appendingPathComponent("posts/bob/dusk.md"))
        #expect(reported(["posts/bob/dusk.md"]), "\(recorder.batches.withLock { $0 })")
    }

    /// With the site's rule, a link that leads out of the site is not followed: the build
    /// refuses it, and it could lead anywhere (`/`).
    @Test func followsOnlyTheLinksTheSiteRuleFollows() throws {
        let siteFolder = try TemporaryFolder(prefix: "tomo-watch"), outsideFolder = try TemporaryFolder(prefix: "tomo-watch")
        let site = siteFolder.url.resolvingSymlinksInPath(), outside = outsideFolder.url.resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content/posts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: site.appendingPathComponent("shared/bob"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("content/posts/alice").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("content/posts/bob").path, withDestinationPath: "../../shared/bob")
        let recorder = BatchRecorder()
        let sitePath = site.path
        let watcher = try FileWatcher(folders: [site.appendingPathComponent("content")], debounce: .milliseconds(30), links: SiteLinks(site: site.path)) { urls in
            recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(sitePath.count + 1)) }) }
        }
        defer { watcher.stop() }
        try Data("x".utf8).write(to: outside.appendingPathComponent("sunset.md"))
        try Data("x".utf8).write(to: site.appendingPathComponent("shared/bob/dusk.md"))
        var seen: Set<String> = []
        for _ in 0..<300 where !seen.contains("content/posts/bob/dusk.md") {
            seen = recorder.batches.withLock { Set($0.joined()) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.1)
        seen = recorder.batches.withLock { Set($0.joined()) }
        #expect(seen == ["content/posts/bob/dusk.md"])
    }

    @Test func reportsNothingAfterStop() throws {
        let fixture = try Fixture()
        fixture.watcher.stop()
        try fixture.write("late.txt", "x")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(fixture.recorder.batches.withLock { $0.isEmpty })
    }

    /// A watcher with a long `debounce` that records when each batch came.
    final class TimedBatches: Sendable {
        let batches = Mutex<[(at: ContinuousClock.Instant, paths: [String])]>([])

        func watch(_ folder: URL, debounce: Duration) throws -> FileWatcher {
            try FileWatcher(folders: [folder], debounce: debounce) { urls in
                self.batches.withLock { $0.append((ContinuousClock.now, urls.map(\.lastPathComponent))) }
            }
        }

        /// When the first batch came (waiting up to 5 s).
        func first() -> (at: ContinuousClock.Instant, paths: [String])? {
            for _ in 0..<500 {
                if let batch = batches.withLock({ $0.first }) { return batch }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }
    }

    /// A save that is whole (the file closed) is reported without waiting for the debounce,
    /// which is only for files still being written.
    @Test func aClosedSaveIsReportedWithoutWaitingForTheDebounce() throws {
        let folder = try TemporaryFolder(prefix: "tomo-watch-settle")
        let root = folder.url.resolvingSymlinksInPath()
        let timed = TimedBatches()
        let watcher = try timed.watch(root, debounce: .seconds(3))
        defer { watcher.stop() }
        let saved = ContinuousClock.now
        try Data("name: Alice".utf8).write(to: root.appendingPathComponent("alice.yaml"))
        let batch = try #require(timed.first())
        #expect(batch.paths == ["alice.yaml"])
        #expect(batch.at - saved < .seconds(1), "reported \(batch.at - saved) after the save")
    }

    /// A file written to and still open holds the batch for the debounce: the editor may not
    /// have written all of it yet. Once it is closed, the batch comes.
    @Test func aFileStillOpenHoldsTheBatchUntilItIsClosed() throws {
        let folder = try TemporaryFolder(prefix: "tomo-watch-open")
        let root = folder.url.resolvingSymlinksInPath()
        let file = root.appendingPathComponent("bob.yaml")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let timed = TimedBatches()
        let watcher = try timed.watch(root, debounce: .seconds(3))
        defer { watcher.stop() }
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("name: ".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(timed.batches.withLock { $0.isEmpty }, "reported while the file was still open")
        try handle.write(contentsOf: Data("Bob".utf8))
        let closed = ContinuousClock.now
        try handle.close()
        let batch = try #require(timed.first())
        #expect(batch.paths == ["bob.yaml"])
        #expect(batch.at - closed < .seconds(1), "reported \(batch.at - closed) after the close")
        #expect(try String(contentsOf: file, encoding: .utf8) == "name: Bob")
    }
}
