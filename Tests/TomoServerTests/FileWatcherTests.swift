import Foundation
import Synchronization
import Testing
import TomoServer

@Suite struct FileWatcherTests {
    final class BatchRecorder: Sendable {
        let batches = Mutex<[[String]]>([])
    }

    /// A temporary folder and a watcher on it that records every batch.
    final class Fixture: Sendable {
        let root: URL
        let recorder = BatchRecorder()
        let watcher: FileWatcher

        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("tomo-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
            try FileManager.default.createDirectory(at: root.appendingPathComponent("users"), withIntermediateDirectories: true)
            let recorder = self.recorder
            let rootPath = root.path
            watcher = try FileWatcher(folders: [root], debounce: .milliseconds(30)) { urls in
                recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(rootPath.count + 1)) }) }
            }
        }

        deinit {
            watcher.stop()
            try? FileManager.default.removeItem(at: root)
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
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("posts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
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

    /// Every kind of folder made while watching is watched from then on, and the files it holds
    /// are reported: a root made late with a folder inside, a new folder beside the others, a
    /// nested one, and a folder moved in with files (and a folder) already in it.
    @Test func everyFolderMadeWhileWatchingIsWatchedAndWhatItHoldsReported() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
        let aside = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-watch-\(UUID().uuidString)").resolvingSymlinksInPath()
        defer {
            try? FileManager.default.removeItem(at: site)
            try? FileManager.default.removeItem(at: aside)
        }
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content/users"), withIntermediateDirectories: true)
        let recorder = BatchRecorder()
        let sitePath = site.path
        let watcher = try FileWatcher(folders: ["content", "templates"].map { site.appendingPathComponent($0) }, debounce: .milliseconds(30)) { urls in
            recorder.batches.withLock { $0.append(urls.map { String($0.path.dropFirst(sitePath.count + 1)) }) }
        }
        defer { watcher.stop() }
        func write(_ relative: String, _ text: String, in root: URL) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        /// Whether every path of `paths` is reported (in any batches) within 3 s.
        func reported(_ paths: Set<String>) -> Bool {
            for _ in 0..<300 {
                let seen = recorder.batches.withLock { Set($0.joined()) }
                if paths.isSubset(of: seen) {
                    recorder.batches.withLock { $0.removeAll() }
                    return true
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        let made = ["templates/static/extra.css", "templates/profile.mustache", "content/pages/about.md",
                    "content/posts/bob/sunset.md", "content/posts/carol/2026/05/deep.md"]
        for path in made { try write(path, "one", in: site) }
        #expect(reported(Set(made)), "\(recorder.batches.withLock { $0 })")
        try write("dave/sunset.md", "moved", in: aside)
        try write("dave/sub/photo.jpg", "moved", in: aside)
        try FileManager.default.moveItem(at: aside.appendingPathComponent("dave"), to: site.appendingPathComponent("content/posts/dave"))
        #expect(reported(["content/posts/dave", "content/posts/dave/sunset.md", "content/posts/dave/sub/photo.jpg"]), "\(recorder.batches.withLock { $0 })")
        // All of them are watched now: an edit in each is seen.
        let edited = made + ["content/posts/dave/sunset.md", "content/posts/dave/sub/photo.jpg"]
        for path in edited { try write(path, "two", in: site) }
        #expect(reported(Set(edited)), "\(recorder.batches.withLock { $0 })")
        // Folders made and filled at once, many times: none is missed between its creation
        // and its watch.
        let bursts = (0..<20).map { "content/posts/user\($0)/a/b/post.md" }
        for path in bursts { try write(path, "x", in: site) }
        #expect(reported(Set(bursts)), "\(recorder.batches.withLock { $0 })")
        // A watched root moved in whole, after the one there was moved away.
        try FileManager.default.moveItem(at: site.appendingPathComponent("templates"), to: aside.appendingPathComponent("old-theme"))
        try write("theme/page.mustache", "moved", in: aside)
        try write("theme/static/site.css", "moved", in: aside)
        try FileManager.default.moveItem(at: aside.appendingPathComponent("theme"), to: site.appendingPathComponent("templates"))
        #expect(reported(["templates/page.mustache", "templates/static/site.css"]), "\(recorder.batches.withLock { $0 })")
        try write("templates/static/site.css", "edited", in: site)
        #expect(reported(["templates/static/site.css"]), "\(recorder.batches.withLock { $0 })")
    }

    @Test func reportsNothingAfterStop() throws {
        let fixture = try Fixture()
        fixture.watcher.stop()
        try fixture.write("late.txt", "x")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(fixture.recorder.batches.withLock { $0.isEmpty })
    }
}
