import Foundation
import Synchronization
import Testing
import TomoTestSupport

/// Seeded changes to the demo site between two builds: the title (every page), a display name
/// (every page that shows the user), a caption, a new post, a post deleted.
struct DemoSiteEdits {
    var random: SplitMix64
    private var count = 0

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Makes one change to `site`; what it did.
    mutating func apply(to site: TemporaryFolder) throws -> String {
        count += 1
        let posts = try postFiles(in: site)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            try replaceLine(starting: "title: ", with: "title: Demo \(count)", in: site.url.appendingPathComponent("content/site.yaml"))
            return "title"
        case 1:
            let handle = random.pick(["alice", "hana", "kenji", "leo", "maria", "omar", "sakura", "yuki"])
            try replaceLine(starting: "name: ", with: "name: Name \(count)", in: site.url.appendingPathComponent("content/users/\(handle).yaml"))
            return "the name of \(handle)"
        case 2 where !posts.isEmpty:
            let post = random.pick(posts)
            let file = site.url.appendingPathComponent("content/posts/\(post).md")
            let text = try String(contentsOf: file, encoding: .utf8)
            let frontMatterEnd = try #require(text.range(of: "\n---\n", range: text.index(after: text.startIndex)..<text.endIndex))
            try (text[..<frontMatterEnd.upperBound] + "Caption \(count).\n").write(to: file, atomically: true, encoding: .utf8)
            return "the caption of \(post)"
        case 4 where !posts.isEmpty:
            let post = random.pick(posts)
            let md = site.url.appendingPathComponent("content/posts/\(post).md")
            let photo = try String(contentsOf: md, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("photo: ") }.map { String($0.dropFirst(7)) }
            try FileManager.default.removeItem(at: md)
            if let photo { try? FileManager.default.removeItem(at: md.deletingLastPathComponent().appendingPathComponent(photo)) }
            return "deleted \(post)"
        default:
            let handle = random.pick(["alice", "kenji", "yuki"])
            let slug = "extra-\(count)"
            try site.copy(repositoryRoot.appendingPathComponent("content/posts/alice/film-morning.jpg"), to: "content/posts/\(handle)/\(slug).jpg")
            try site.write("content/posts/\(handle)/\(slug).md", "---\nphoto: \(slug).jpg\ndate: 2026-03-\(10 + count % 18)T12:00:00Z\nalt: A street\n---\nPost \(count).\n")
            return "added \(handle)/\(slug)"
        }
    }

    private func postFiles(in site: TemporaryFolder) throws -> [String] {
        let posts = site.url.appendingPathComponent("content/posts")
        var found: [String] = []
        for handle in try FileManager.default.contentsOfDirectory(atPath: posts.path).sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: posts.appendingPathComponent(handle).path)) ?? []
            found += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(handle)/\($0.dropLast(3))" }
        }
        return found
    }

    private func replaceLine(starting prefix: String, with line: String, in file: URL) throws {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix(prefix) })
        var changed = lines.map(String.init)
        changed[index] = line
        try changed.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    }
}

/// What `tomo build` promises about its output folder, on the real binary: two builds into one
/// folder take turns; a build killed at any moment is made whole by the next; a build that fails
/// leaves the output as it was, and one whose commit failed half way is followed by a full build.
/// After each, the output is byte for byte what a fresh `tomo build --full` makes, with no
/// temporary file or flag left in it.
@Suite(.serialized) struct WholeOutputTests {
    /// What the site folder should hold besides the output: no staging folder or lock beside it.
    static func sitesOwnEntries(_ site: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.url.path).sorted()
    }

    @Test func twoBuildsAtOnceIntoOneOutputTakeTurns() throws {
        let site = try demoSiteCopy()
        var edits = DemoSiteEdits(seed: 7)
        var waits = 0
        for round in 0..<8 {
            let change = try edits.apply(to: site)
            // Every third round, two first builds race to create the folder.
            if round % 3 == 0 { try? FileManager.default.removeItem(at: site.url.appendingPathComponent("public")) }
            let arguments = [["build"], round % 2 == 0 ? ["build"] : ["build", "--full"]]
            let runs = Mutex<[ProcessRun?]>([nil, nil])
            let folder = site.url
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let run = try? ProcessRun.tomo(arguments[index], in: folder)
                runs.withLock { $0[index] = run }
            }
            for run in runs.withLock({ $0 }) {
                let run = try #require(run)
                #expect(run.ending == .exited(0), "round \(round) (\(change)): \(run)")
                if run.error.contains("waiting for the other tomo build into public/ to finish") { waits += 1 }
            }
            let output = fileTree(site.url.appendingPathComponent("public"))
            let expected = try fullBuildOutput(of: site.url)
            #expect(output == expected, "round \(round) (\(change)): \(differences(output, expected))")
            #expect(try Self.sitesOwnEntries(site) == [".tomo-cache", "content", "public", "templates"])
        }
        // The builds did overlap: each round tested the lock, not only two builds in a row.
        #expect(waits > 0)
    }

    /// `kill -9` at seeded moments of `tomo build` (any file call of any thread: while pages are
    /// written, between two renames of the commit, while the state is saved; into an existing
    /// output or a new one). `TOMO_KILL_SEED`/`TOMO_KILL_RUNS` run it longer (`make fuzz`).
    @Test(.enabled(if: SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)"))
    func aBuildKilledAtAnyMomentIsMadeWholeByTheNextOne() throws {
        let plan = SeededRounds(variables: "TOMO_KILL", rounds: 8)
        var random = SplitMix64(seed: plan.seed)
        var edits = DemoSiteEdits(seed: plan.seed)
        let site = try demoSiteCopy()
        #expect(try ProcessRun.tomo(["build"], in: site.url).ending == .exited(0))
        // The moments a full build has, counted in a copy (a later, smaller build may end before).
        let copy = try TemporaryFolder()
        try FileManager.default.removeItem(at: copy.url)
        try FileManager.default.copyItem(at: site.url, to: copy.url)
        let counts = try SyscallFault.counts(["build", "--full"], in: copy.url)
        var killed = 0
        for round in 0..<plan.rounds {
            var change = try edits.apply(to: site)
            if random.chance(0.2) {
                try FileManager.default.removeItem(at: site.url.appendingPathComponent("public"))
                change += ", into a new output"
            }
            let moment = SyscallFault.moment(in: counts, using: &random)
            let context = "seed \(plan.seed) round \(round) (\(change), killed at \(moment))"
            let victim = try SyscallFault.run(["build"], in: site.url, .kill, at: moment)
            if victim.ending == .signalled(SIGKILL) { killed += 1 } else { #expect(victim.ending == .exited(0), "\(context): \(victim)") }

            // What the killed build left is gone when the next build starts, even one that fails.
            try site.write("content/users/broken.yaml", "nme: Broken\n")
            let failing = try ProcessRun.tomo(["build"], in: site.url)
            #expect(failing.ending == .exited(1), "\(context): \(failing)")
            let left = fileTree(site.url.appendingPathComponent("public")).keys.filter { $0.hasSuffix(".tomo-new") || $0.hasPrefix(".tomo-writing") }
            #expect(left.isEmpty, "\(context): \(left.sorted())")
            #expect(try Self.sitesOwnEntries(site).allSatisfy { [".tomo-cache", "content", "public", "templates"].contains($0) }, "\(context)")
            try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/broken.yaml"))

            let next = try ProcessRun.tomo(["build"], in: site.url)
            #expect(next.ending == .exited(0), "\(context): \(next)")
            let output = fileTree(site.url.appendingPathComponent("public"))
            let expected = try fullBuildOutput(of: site.url)
            #expect(output == expected, "\(context): \(differences(output, expected))")
            #expect(try Self.sitesOwnEntries(site) == [".tomo-cache", "content", "public", "templates"], "\(context)")
        }
        print("kill test: seed \(plan.seed), \(plan.rounds) rounds, \(killed) builds killed")
        #expect(killed > 0, "no build was killed: the test tested nothing")
    }

    /// A rename of the commit fails after others succeeded: some pages are new, some old. The
    /// state the last build kept no longer describes the output, so it must not be kept: with
    /// it, undoing the edit would look like "nothing to render" and leave the new pages.
    @Test(.enabled(if: SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)"))
    func aCommitThatFailsHalfWayIsFollowedByAFullBuild() throws {
        let site = try demoSiteCopy()
        #expect(try ProcessRun.tomo(["build"], in: site.url).ending == .exited(0))
        // Once the image cache is two seconds old, a build keeps its index for good: the build
        // below then renames nothing of the cache on its main thread, only the commit's files.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try ProcessRun.tomo(["build", "--full"], in: site.url).ending == .exited(0))
        let settings = site.url.appendingPathComponent("content/site.yaml")
        let original = try Data(contentsOf: settings)
        try site.write("content/site.yaml", String(decoding: original, as: UTF8.self).replacingOccurrences(of: "title: Tomo Demo", with: "title: Half Done"))
        // The third rename of the main thread is the commit's third (no thumbnail is new).
        let failed = try SyscallFault.run(["build"], in: site.url, .error("EACCES"), at: .init(call: "rename", number: 3))
        #expect(failed.ending == .exited(1), "\(failed)")
        #expect(failed.error.contains("cannot replace"), "\(failed)")
        let output = fileTree(site.url.appendingPathComponent("public"))
        let halfDone = output.filter { String(decoding: $0.value, as: UTF8.self).contains("Half Done") }
        try #require(!halfDone.isEmpty, "the commit should have replaced some files before it failed")
        #expect(!output.keys.contains { $0.hasSuffix(".tomo-new") || $0.hasPrefix(".tomo-writing") }, "\(output.keys.sorted())")

        try original.write(to: settings)
        let next = try ProcessRun.tomo(["build"], in: site.url)
        #expect(next.ending == .exited(0), "\(next)")
        let after = fileTree(site.url.appendingPathComponent("public"))
        let expected = try fullBuildOutput(of: site.url)
        #expect(after == expected, "\(differences(after, expected))")
    }
}
