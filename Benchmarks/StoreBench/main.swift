import Foundation
import TomoCore
import TomoStore

// tomo-store-bench: builds a big site store and times store commands against it.
//
//   tomo-store-bench generate DIR [USERS FOLLOWS LIKES]   write DIR/content/store.json
//   tomo-store-bench time DIR TOMO [RUNS]                 time `TOMO follow` on DIR, and the
//                                                          read/decode/encode/write phases in-process
//
// Defaults are the design's target: 10,000 users, 200,000 follows, 500,000 likes.
// scripts/store-bench.sh runs both against a release build.

func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let duration = ContinuousClock.now - start
    return duration.seconds * 1000
}

func handle(_ index: Int) -> String { "user" + String(index).leftPadded(to: 5) }

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// A deterministic generator (the same store every run).
struct SplitMix {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

func generate(site: URL, users userCount: Int, follows followCount: Int, likes likeCount: Int) throws {
    let content = site.appendingPathComponent("content")
    try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: content.appendingPathComponent("site.yaml").path, contents: Data("title: Bench\n".utf8))
    try? FileManager.default.removeItem(at: content.appendingPathComponent("store.json"))
    var random = SplitMix(state: 42)
    let postsPerUser = 5
    let start = ContinuousClock.now
    let outcome = try StoreFile(site: site).update { store throws(Diagnostic) in
        for index in 0..<userCount {
            _ = try store.addUser(handle(index), at: "2026-01-01T00:00:00.000Z")
        }
        // Follows in key order (each user follows a sorted set of others), so every insert appends.
        let perUser = followCount / userCount
        for index in 0..<userCount {
            var targets = Set<Int>()
            while targets.count < perUser {
                let target = random.next(userCount)
                if target != index { targets.insert(target) }
            }
            for target in targets.sorted() {
                _ = try store.follow(handle(index), handle(target), at: "2026-01-02T00:00:00.000Z")
            }
        }
        // Likes spread over every user's posts, likers added in sorted order.
        let posts = (0..<userCount).flatMap { user in (0..<postsPerUser).map { "\(handle(user))/post-\($0)" } }.sorted()
        let perPost = likeCount / posts.count
        for post in posts {
            var likers = Set<Int>()
            while likers.count < perPost { likers.insert(random.next(userCount)) }
            let id = try PostID(parsing: post)
            for liker in likers.sorted() { _ = try store.like(handle(liker), id, visibility: .public) }
        }
        return .changed("generated")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: content.appendingPathComponent("store.json").path)[.size] as? Int) ?? 0
    print("\(outcome.message) \(userCount) users, \(followCount) follows, \(likeCount) likes in \(Int(milliseconds(since: start))) ms; store.json is \(size) bytes (\(String(format: "%.1f", Double(size) / 1_048_576)) MiB)")
}

func timeCommands(site: URL, tomo: String, runs: Int) throws {
    var wall: [Double] = []
    for run in 0..<runs {
        // Alternate follow and unfollow of a pair that does not exist yet, so every run writes.
        let verb = run % 2 == 0 ? "follow" : "unfollow"
        // posix_spawn + waitpid: Foundation's Process.waitUntilExit polls, which would round the times.
        let arguments = [tomo, "--site", site.path, verb, handle(1), handle(2)]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, tomo, &actions, nil, &argv, environ) == 0 else { throw Diagnostic("cannot run \(tomo)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        wall.append(milliseconds(since: start))
        guard status == 0 else { throw Diagnostic("tomo \(verb) failed (wait status \(status))") }
    }
    wall.sort()
    print(String(format: "tomo follow/unfollow (one process each, wall clock, %d runs): median %.1f ms, min %.1f ms, max %.1f ms", runs, wall[runs / 2], wall[0], wall[runs - 1]))

    // Where the time goes, in this process.
    let file = site.appendingPathComponent("content/store.json")
    var start = ContinuousClock.now
    let bytes = [UInt8](try Data(contentsOf: file))
    let readTime = milliseconds(since: start)
    start = ContinuousClock.now
    // The parts `tomo follow` reads; the others are only checked and copied.
    let followSections: Set<StoreSection> = [.users, .followPairs, .blocks]
    var store = try StoreDecoder.decode(bytes, file: "content/store.json", sections: followSections)
    let decodeTime = milliseconds(since: start)
    start = ContinuousClock.now
    _ = try store.follow(handle(3), handle(4))
    let ruleTime = milliseconds(since: start)
    start = ContinuousClock.now
    let encoded = StoreEncoder.encode(store)
    let encodeTime = milliseconds(since: start)
    start = ContinuousClock.now
    _ = try StoreFile(site: site).update(sections: followSections) { store throws(Diagnostic) in try store.unfollow(handle(3), handle(4)) }
    let updateTime = milliseconds(since: start)
    // What an append-only change log would cost instead of rewriting the store: one record, fsync'd.
    let log = site.appendingPathComponent("content/.bench-append.log")
    start = ContinuousClock.now
    let descriptor = open(log.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    let line = Array("[\"follow\",\"user00003\",\"user00004\",\"2026-01-02T00:00:00.000Z\"]\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    fsync(descriptor)
    close(descriptor)
    let appendTime = milliseconds(since: start)
    unlink(log.path)
    print(String(format: "an append-only log instead: append one record + fsync %.2f ms", appendTime))
    print(String(format: "in-process: read %.1f ms, decode %.1f ms, rule %.2f ms, encode %.1f ms (%d bytes); whole locked update incl. fsync %.1f ms", readTime, decodeTime, ruleTime, encodeTime, encoded.count, updateTime))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "generate" where arguments.count >= 2:
        let numbers = arguments.dropFirst(2).compactMap { Int($0) }
        try generate(
            site: URL(fileURLWithPath: arguments[1]),
            users: numbers.count > 0 ? numbers[0] : 10_000,
            follows: numbers.count > 1 ? numbers[1] : 200_000,
            likes: numbers.count > 2 ? numbers[2] : 500_000
        )
    case "time" where arguments.count >= 3:
        try timeCommands(site: URL(fileURLWithPath: arguments[1]), tomo: arguments[2], runs: arguments.count > 3 ? Int(arguments[3]) ?? 11 : 11)
    default:
        print("usage: tomo-store-bench generate DIR [USERS FOLLOWS LIKES] | time DIR TOMO [RUNS]")
        exit(2)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
