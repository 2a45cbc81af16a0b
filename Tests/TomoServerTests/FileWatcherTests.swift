import Foundation
import Synchronization
import Testing
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
            watcher = try FileWatcher(folders: [root], debounce: .milliseconds(30)) { urls in
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

    /// Links to folders are watched as the folders they lead to (the build reads through them);
    /// a second name for a folder already watched is reported, not silently left unseen.
    @Test func watchesLinkedFoldersAndReportsASecondNameForOne() throws {
        let rootFolder = try TemporaryFolder(prefix: "tomo-watch")
        let outsideFolder = try TemporaryFolder(prefix: "tomo-watch")
        let root = rootFolder.url.resolvingSymlinksInPath()
        let outside = outsideFolder.url.resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("posts"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("posts/alice").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("posts/again").path, withDestinationPath: "../posts")
        let recorder = BatchRecorder()
        let problems = Mutex<[String]>([])
        let rootPath = root.path
        let watcher = try FileWatcher(folders: [root], debounce: .milliseconds(30), onUnwatched: { folder, problem in
            problems.withLock { $0.append(String(folder.path.dropFirst(rootPath.count + 1)) + ": " + problem) }
        }) { urls in
            recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(rootPath.count + 1)) }) }
        }
        defer { watcher.stop() }
        #expect(problems.withLock { $0 } == [
            "posts/again: cannot watch this folder (it is the folder \(rootPath)/posts under another name, and its changes are reported under that name only): changes in it are not seen until that is fixed",
        ])
        try Data("x".utf8).write(to: outside.appendingPathComponent("sunset.md"))
        var seen = false
        for _ in 0..<300 where !seen {
            seen = recorder.batches.withLock { $0.contains { $0.contains("posts/alice/sunset.md") } }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(seen)
    }

    @Test func reportsNothingAfterStop() throws {
        let fixture = try Fixture()
        fixture.watcher.stop()
        try fixture.write("late.txt", "x")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(fixture.recorder.batches.withLock { $0.isEmpty })
    }
}
