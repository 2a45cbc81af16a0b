import Foundation
import Synchronization
import Testing
import TomoTestSupport

/// The oracle for "an error with a location, never a crash": a small valid site, mutated at
/// random by `SiteMutations`, then `tomo check`, `tomo build` (twice: the second reads the cache
/// the first left) and a store command run on it with the real debug binary. Every run ends with
/// exit status 0, 1 or 2, never a signal and never a hang; a status of 1 comes with an error
/// naming the file it is about (`content/…`, `templates/…`), except for store rules refusing a
/// change (an unknown user), which name users.
///
/// Case `n` of a run with seed `S` uses seed `S + n`: a failure prints that seed, and
/// `make fuzz SEED=<it> RUNS=1` replays exactly that case. `swift test` runs a few cases
/// with a fixed seed; `make fuzz` reads `TOMO_FUZZ_SEED` and `TOMO_FUZZ_RUNS` for longer runs.
@Suite struct FuzzTests {
    static let fixedSeed: UInt64 = 0x746F_6D6F
    /// About 0.3 s each on this 2-core machine (four runs of the binary): the fixed run takes 4–7 s.
    static let fixedRuns = 16
    /// Each run of the binary may take this long before it counts as a hang.
    static let timeout = Duration.seconds(60)

    /// The files mutations may hit, relative to the site (cache files once a build made them).
    static let targets = [
        "content/site.yaml", "content/users/ana.yaml", "content/users/ben.yaml", "content/users/cai.json",
        "content/posts/ana/sunset.md", "content/posts/ben/secret.md", "content/pages/about.md",
        "templates/item.mustache", "templates/note.mustache", "content/store.json",
    ]
    static let cacheTargets = ["state", "outputs", "images/sources"]

    /// Store commands a case may end with, and whether their refusals name a file.
    static let storeCommands: [(arguments: [String], namesFile: Bool)] = [
        (["user", "list"], true), (["user", "list", "--json"], true), (["user", "show", "ana"], false), (["reports"], true),
        (["post", "list"], true), (["follow", "cai", "ana"], false), (["like", "cai", "ana/sunset"], false),
        (["report", "cai", "ana/sunset", "--reason", "spam"], false), (["unfollow", "ben", "ana"], false),
    ]

    /// The site every case starts from: three users (one in JSON), a public and a followers-only
    /// post, a page, two templates of its own, a store with follows, likes and a report; built
    /// once, so that the caches exist.
    static func baseSite() throws -> TemporaryFolder {
        let site = try TemporaryFolder([
            "content/site.yaml": "title: Fuzz site\nbaseURL: https://fuzz.example/\nlanguage: en\ndescription: A site to break.\nhomeUsers: 10\npageSize: 2\nimages:\n  widths: [64]\n",
            "content/users/ana.yaml": """
            name: Ana
            bio: |
              Film **photos** from [Lisbon](https://ana.example).
            icon: ana/icon.jpg
            links:
              website: https://ana.example
              mastodon: https://mastodon.social/@ana
            items:
              - text: Prints
                url: https://ana.example/prints
                color: orange
              - text: Summer sale
                from: 2026-06-01
                until: 2999-12-31
            itemColor: "#2e7d32"
            email: ana@example.com
            showEmail: true

            """,
            "content/users/ben.yaml": "name: Ben\nbio: Ben writes.\nitems:\n  - text: Hello\n    until: 2262-04-12\n",
            "content/users/cai.json": #"{"name": "Cai", "bio": "From JSON.", "items": [{"text": "Note", "from": "2026-01-01T09:00:00+09:00"}], "links": {"website": "https://cai.example"}}"#,
            "content/posts/ana/sunset.md": "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\nalt: An orange sky\nvisibility: public\n---\nThe sky over **Lisbon**.\n",
            "content/posts/ben/secret.md": "---\nphoto: p.jpg\ndate: 9999-12-31\nalt: A door\nvisibility: followers\n---\nFor friends.\n",
            "content/pages/about.md": "---\ntitle: About\n---\nAbout *this* site.\n",
            "templates/item.mustache": "<li class=\"item\" style=\"color: {{foreground}}\">{{#isLink}}<a href=\"{{url}}\">{{text}}</a>{{/isLink}}{{^isLink}}{{text}}{{/isLink}}{{>note}}</li>\n",
            "templates/note.mustache": "{{#text}}<!-- {{text}} -->{{/text}}",
        ])
        for photo in ["content/users/ana/icon.jpg", "content/posts/ana/p.jpg", "content/posts/ben/p.jpg"] {
            let url = site.url.appendingPathComponent(photo)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sampleJPEG, to: url)
        }
        let commands = [
            ["user", "add", "ana"], ["user", "add", "ben"], ["user", "add", "cai"], ["follow", "ana", "ben"], ["follow", "ben", "ana"],
            ["follow", "cai", "ben"], ["like", "ben", "ana/sunset"], ["report", "cai", "ana/sunset", "--reason", "Not a sunset"], ["build"],
        ]
        for command in commands {
            let result = runTomo(command + ["--site", site.url.path])
            #expect(result.status == 0, "\(command): \(result.error)")
        }
        return site
    }

    /// What went wrong in one case, or nil.
    struct Failure: CustomStringConvertible {
        var seed: UInt64
        var mutations: [String]
        var command: [String]
        var run: ProcessRun
        var kept: String

        var description: String {
            "seed \(seed) (replay: make fuzz SEED=\(seed) RUNS=1; site kept in \(kept))\n  mutations: \(mutations.joined(separator: "; "))\n  tomo \(command.joined(separator: " ")): \(run)"
        }
    }

    /// Why `run` of `command` breaks the promise, or nil when it keeps it.
    static func problem(with run: ProcessRun, namesFile: Bool) -> String? {
        switch run.ending {
        case .signalled(let signal): return "killed by signal \(signal)"
        case .timedOut: return "still running after \(timeout)"
        case .exited(0), .exited(2): return nil
        case .exited(1):
            guard run.error.contains("error: ") else { return "exit 1 without an error message" }
            if namesFile, !["content/", "templates/"].contains(where: run.error.contains) { return "exit 1 without naming a file" }
            return nil
        case .exited(let status): return "exit status \(status)"
        }
    }

    /// Copies the base site, mutates it as `seed` says and runs the commands; the first broken
    /// promise, and the exit statuses seen (to show what the cases reached).
    static func runCase(seed: UInt64, base: URL, statuses: inout [Int32: Int]) throws -> Failure? {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-fuzz-\(seed)-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: base, to: site)
        var mutations = SiteMutations(seed: seed)
        let buildCache = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent(".tomo-cache/build").path).first ?? ""
        let cacheFiles = cacheTargets.map { $0 == "images/sources" ? ".tomo-cache/images/sources" : ".tomo-cache/build/\(buildCache)/\($0)" }
        for _ in 0..<Int.random(in: 1...3, using: &mutations.random) {
            let path = mutations.random.chance(0.15) ? mutations.random.pick(cacheFiles) : mutations.random.pick(targets)
            let url = site.appendingPathComponent(path)
            let bytes = Array(FileManager.default.contents(atPath: url.path) ?? Data())
            try Data(mutations.mutate(bytes, path: path)).write(to: url)
        }
        let store = mutations.random.pick(storeCommands)
        let commands: [(arguments: [String], namesFile: Bool)] = [(["check"], true), (["build"], true), (["build"], true), store]
        for (arguments, namesFile) in commands {
            let run = try ProcessRun.tomo(arguments, in: site, timeout: timeout)
            if case .exited(let status) = run.ending { statuses[status, default: 0] += 1 }
            if problem(with: run, namesFile: namesFile) != nil {
                return Failure(seed: seed, mutations: mutations.log, command: arguments, run: run, kept: site.path)
            }
        }
        try? FileManager.default.removeItem(at: site)
        return nil
    }

    /// Runs `runs` cases from `seed` on both cores; every failure, and how often each exit status came.
    static func fuzz(seed: UInt64, runs: Int) throws -> (failures: [Failure], statuses: [Int32: Int]) {
        let base = try baseSite()
        let baseURL = base.url
        let results = Mutex<(failures: [Failure], statuses: [Int32: Int], errors: [any Error])>(([], [:], []))
        DispatchQueue.concurrentPerform(iterations: runs) { index in
            var statuses: [Int32: Int] = [:]
            do {
                let failure = try runCase(seed: seed &+ UInt64(index), base: baseURL, statuses: &statuses)
                results.withLock { results in
                    if let failure { results.failures.append(failure) }
                    results.statuses.merge(statuses, uniquingKeysWith: +)
                }
            } catch {
                results.withLock { $0.errors.append(error) }
            }
        }
        withExtendedLifetime(base) {}
        let (failures, statuses, errors) = results.withLock { $0 }
        if let error = errors.first { throw error }
        return (failures.sorted { $0.seed < $1.seed }, statuses)
    }

    @Test func mutatedSitesEndInAStatusAndAMessageNeverACrashOrAHang() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TOMO_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.fixedSeed
        let runs = environment["TOMO_FUZZ_RUNS"].flatMap { Int($0) } ?? Self.fixedRuns
        let started = ContinuousClock.now
        let (failures, statuses) = try Self.fuzz(seed: seed, runs: runs)
        for failure in failures { Issue.record("\(failure)") }
        let tally = statuses.sorted { $0.key < $1.key }.map { "exit \($0.key): \($0.value)" }.joined(separator: ", ")
        print("fuzz: \(runs) cases from seed \(seed), \(failures.count) failed (\(tally)), in \(ContinuousClock.now - started)")
    }
}
