import Foundation
import Testing
import TomoCore
import TomoStore
import TomoTestSupport

/// The real `tomo` binary (built by `swift build --build-tests` next to the test bundle) against
/// one store from many processes at once, and killed in the middle of writes.
@Suite(.serialized) struct StoreProcessTests {
    static func makeSite() throws -> TemporaryFolder {
        let folder = try TemporaryFolder(prefix: "tomo-proc")
        try folder.write("content/site.yaml", bytes: Array("title: Test\n".utf8))
        return folder
    }

    static func start(_ executable: URL, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func theBinaryRunsAStoreCommandAndExitsWithTheDesignedStatus() throws {
        let tomo = tomoBinary()
        let folder = try Self.makeSite()
        let site = folder.url
        let pipe = Pipe()
        let process = Process()
        process.executableURL = tomo
        process.arguments = ["user", "add", "alice", "--site", site.path]
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "added alice\nwrote content/users/alice.yaml\n")
        let refused = try Self.start(tomo, ["--site", site.path, "follow", "alice", "alice"])
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 1)
        let misused = try Self.start(tomo, ["--site", site.path, "follow"])
        misused.waitUntilExit()
        #expect(misused.terminationStatus == 2)
    }

    @Test func eightProcessesWritingAtOnceLoseNoUpdate() throws {
        let tomo = tomoBinary()
        let folder = try Self.makeSite()
        let site = folder.url
        let store = StoreFile(site: site)
        _ = try store.update { store throws(Diagnostic) in
            for index in 0..<8 { _ = try store.addUser("w\(index)") }
            for index in 0..<24 { _ = try store.addUser("t\(index)") }
            return .changed("users")
        }
        for index in stride(from: 1, to: 24, by: 2) {
            let post = site.appendingPathComponent("content/posts/t\(index)/p.md")
            try FileManager.default.createDirectory(at: post.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("---\nphoto: p.jpg\n---\n".utf8).write(to: post)
        }
        // Each worker: 24 tomo processes in a row, 12 follows and 12 likes; 8 workers at once.
        let loop = """
        i=0; while [ $i -lt 24 ]; do
          if [ $((i % 2)) = 0 ]; then "$0" --site "$1" follow "w$2" "t$i" || exit 1
          else "$0" --site "$1" like "w$2" "t$i/p" || exit 1; fi
          i=$((i + 1))
        done
        """
        let workers = try (0..<8).map { worker in
            try Self.start(URL(fileURLWithPath: "/bin/sh"), ["-c", loop, tomo.path, site.path, "\(worker)"])
        }
        for worker in workers { worker.waitUntilExit() }
        #expect(workers.allSatisfy { $0.terminationStatus == 0 })

        let text = try String(contentsOf: store.url, encoding: .utf8)
        _ = try JSONParser.parse(text, file: "store.json")  // valid JSON for any tool
        let result = try store.read()
        #expect(result.follows.count == 96)
        #expect(result.likes.reduce(0) { $0 + $1.users.count } == 96)
        for worker in 0..<8 {
            #expect(result.following("w\(worker)").count == 12)
        }
        #expect(result.likeCount("t1/p") == 8)
    }

    @Test func killingWritersAtRandomMomentsLeavesAWholeStoreWithAPrefixOfTheWrites() throws {
        let tomo = tomoBinary()
        let folder = try Self.makeSite()
        let site = folder.url
        let store = StoreFile(site: site)
        // Some bulk (2,450 follows), so a write takes long enough to be killed in the middle.
        let writers = 10
        _ = try store.update { store throws(Diagnostic) in
            for index in 0..<50 { _ = try store.addUser("bulk\(String(index + 100))") }
            for index in 0..<writers { _ = try store.addUser("c\(String(index + 10))") }
            _ = try store.addUser("target")
            for from in 0..<50 {
                for to in 0..<50 where to != from { _ = try store.follow("bulk\(from + 100)", "bulk\(to + 100)", at: "2026-01-01T00:00:00.000Z") }
            }
            return .changed("bulk")
        }
        let bulk = try store.read().follows.count
        // Kill anywhere from before the start to well after a whole command (timed here, as the
        // machine's load makes it vary; the quicker of two runs, since one slowed by a moment
        // of load made the window so wide that no kill fell inside a command): some writes
        // land, others die at every stage.
        let clock = ContinuousClock()
        let elapsed = try (0..<2).map { _ in
            let timed = try Self.start(tomo, ["--site", site.path, "unfollow", "c10", "target"])
            let started = clock.now
            timed.waitUntilExit()
            return clock.now - started
        }.min() ?? .milliseconds(50)
        let window = UInt32(min(2 * elapsed.seconds * 1e6, 1e6))
        var done = 0
        var killedBeforeTheEnd = 0
        var attempts = 0
        while done < writers && attempts < writers * 3 {
            attempts += 1
            let writer = try Self.start(tomo, ["--site", site.path, "follow", "c\(done + 10)", "target"])
            usleep(UInt32.random(in: 0...max(window, 1000)))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            if writer.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }

            // Whatever moment it died at, the store is whole and holds exactly the first writes.
            let now = try store.read()
            let written = Set(now.followers("target"))
            let prefix = Set((0..<done).map { "c\($0 + 10)" })
            #expect(written == prefix || written == prefix.union(["c\(done + 10)"]), "after attempt \(attempts): \(written.sorted())")
            #expect(now.follows.count == bulk + written.count)
            if written.count > done { done += 1 }
        }
        print("crash test: \(attempts) attempts, \(done) writes landed, \(killedBeforeTheEnd) killed by SIGKILL")
        #expect(done > 0)
        #expect(killedBeforeTheEnd > 0, "no writer was killed mid-run: the test did not test anything")
    }
}
