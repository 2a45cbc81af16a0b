import Foundation
import Synchronization
import Testing
import TomoTestSupport

/// The differential oracle for rebuilds: a real small site is edited at random, step by step
/// (`EditSequence`), and after every step, with the real `tomo` binary:
/// - the incremental `tomo build` into `public/` and a `tomo build --full` into a fresh folder
///   give the same tree: every file and folder name, every byte;
/// - when the full build fails, the incremental one fails too, with the same error lines, and
///   `public/` is byte for byte what it was before the step; when it succeeds, its summary
///   counts the files `public/` has, and a `tomo build` right after finds nothing changed;
/// - a `tomo serve --no-reload` started once per sequence, on the site's own address, serves
///   every file of the full build with the same bytes, the last good site while the build
///   fails, and 404 for every other path any earlier step published (and for `.tomo-output`,
///   the output folder's marker, which is no page of the site).
///
/// The preview is judged once it has rebuilt after the step (`LoggedPreview.settle`: a file
/// nothing reads saved after the step, and the preview's `Rebuilt … after` line naming it).
///
/// Sequence `n` of a run with seed `S` uses seed `S + n`. `swift test` runs two short sequences
/// from a fixed seed; `make fuzz SEED=… STEPS=…` (`TOMO_ORACLE_SEED`, `TOMO_ORACLE_STEPS`)
/// runs sequences of 40 steps until STEPS steps are done. `TOMO_ORACLE_SERVE=0` leaves the
/// preview out. A failure prints the seed, the steps up to it and the command that replays them.
@Suite(.serialized) struct ChangeOracleTests {
    static let fixedSeed: UInt64 = 0x6F72_6163_6C65
    static let fixedSequences = 2
    static let fixedLength = 25
    static let sequenceLength = 40
    /// A sequence stops after this many mismatches: later ones are mostly the same bug again.
    static let mismatchesPerSequence = 3

    @Test func afterEveryEditTheIncrementalBuildAndThePreviewEqualAFullBuild() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TOMO_ORACLE_SEED"].flatMap { UInt64($0) } ?? Self.fixedSeed
        let requested = environment["TOMO_ORACLE_STEPS"].flatMap { Int($0) }
        let steps = requested ?? Self.fixedSequences * Self.fixedLength
        let length = requested == nil ? Self.fixedLength : Self.sequenceLength
        let serve = environment["TOMO_ORACLE_SERVE"] != "0"
        let lengths = stride(from: 0, to: steps, by: length).map { min(length, steps - $0) }

        let started = ContinuousClock.now
        let results = Mutex<[OracleRun.Summary]>([])
        // One sequence per core: each runs one process at a time.
        DispatchQueue.concurrentPerform(iterations: lengths.count) { index in
            let summary = OracleRun.run(seed: seed &+ UInt64(index), steps: lengths[index], serve: serve)
            // Shown as each sequence ends: a long run tells what it found as it goes.
            print("change oracle: seed \(summary.seed): \(summary.steps) steps, \(summary.failedBuilds) failing builds, \(summary.failures.count) mismatches")
            for failure in summary.failures { print(failure) }
            results.withLock { $0.append(summary) }
        }
        let summaries = results.withLock { $0 }.sorted { $0.seed < $1.seed }
        for summary in summaries {
            for failure in summary.failures { Issue.record("\(failure)") }
        }
        let ran = summaries.reduce(0) { $0 + $1.steps }
        let failing = summaries.reduce(0) { $0 + $1.failedBuilds }
        let mismatches = summaries.reduce(0) { $0 + $1.failures.count }
        print("change oracle: \(ran) steps in \(summaries.count) sequences from seed \(seed)\(serve ? "" : " (no preview)"), "
            + "\(failing) failing builds, \(mismatches) mismatches, in \(ContinuousClock.now - started)")
    }
}

/// One sequence: a site in its own folder, its preview, and the checks after every step.
final class OracleRun {
    struct Summary {
        var seed: UInt64
        var steps: Int
        var failedBuilds: Int
        var failures: [Failure]
    }

    struct Failure: CustomStringConvertible {
        var seed: UInt64
        var step: Int
        var problem: String
        var steps: [String]
        var kept: String

        var description: String {
            """
            change oracle: seed \(seed), step \(step): \(problem)
              replay: TOMO_ORACLE_SEED=\(seed) TOMO_ORACLE_STEPS=\(max(step, 1)) swift test --skip-build --filter ChangeOracleTests
              site kept in \(kept)
              steps:
            \(steps.map { "    " + $0 }.joined(separator: "\n"))
            """
        }
    }

    let seed: UInt64
    let folder: URL
    var site: URL { folder.appendingPathComponent("site") }
    var publicFolder: URL { site.appendingPathComponent("public") }
    var edits: EditSequence
    var preview: LoggedPreview?
    var steps: [String] = []
    var failures: [Failure] = []
    var failedBuilds = 0
    /// `public/` after the last step, and what the preview served after the last good build.
    var published: OutputTree = [:]
    var lastGoodServed: OutputTree = [:]
    /// Every path the preview was expected to serve at some step.
    var everServed: Set<String> = [OutputTree.marker, OutputBookkeeping.record, "no/such/page/index.html"]
    /// The preview was started again while the site failed to build: it has no good site to
    /// keep serving until a build succeeds.
    var previewHasNoGoodSite = false

    init(seed: UInt64) throws {
        self.seed = seed
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-oracle-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        edits = EditSequence(site: folder.appendingPathComponent("site"), outside: folder.appendingPathComponent("outside"), seed: seed)
    }

    static func run(seed: UInt64, steps: Int, serve: Bool) -> Summary {
        let run: OracleRun
        do {
            run = try OracleRun(seed: seed)
        } catch {
            return Summary(seed: seed, steps: 0, failedBuilds: 0, failures: [Failure(seed: seed, step: 0, problem: "\(error)", steps: [], kept: "")])
        }
        do {
            try run.run(steps: steps, serve: serve)
        } catch {
            run.fail(step: run.steps.count - 1, "the harness stopped: \(error)")
        }
        run.preview?.stop()
        if run.failures.isEmpty { try? FileManager.default.removeItem(at: run.folder) }
        return Summary(seed: seed, steps: max(0, run.steps.count - 1), failedBuilds: run.failedBuilds, failures: run.failures)
    }

    func run(steps count: Int, serve: Bool) throws {
        let port = serve ? try freeLoopbackPort() : 0
        try edits.start(baseURL: serve ? "http://127.0.0.1:\(port)/" : "https://oracle.example/")
        steps.append("0: the starting site")
        if serve { preview = try LoggedPreview(site: site, port: port) }
        var buildFailed = try check(step: 0, preview: preview.map { _ in .rebuilt })
        var index = 1
        while index <= count, failures.count < ChangeOracleTests.mismatchesPerSequence {
            let description = try edits.step(afterFailedBuild: buildFailed)
            steps.append("\(index): \(description)")
            let outcome = try preview?.settle(step: index)
            buildFailed = try check(step: index, preview: outcome)
            if buildFailed { failedBuilds += 1 }
            index += 1
        }
    }

    /// Both builds and the preview after a step; whether the full build failed.
    func check(step: Int, preview outcome: LoggedPreview.Outcome?) throws -> Bool {
        let before = published
        let incremental = try build(["build"], into: publicFolder)
        let fullFolder = folder.appendingPathComponent("full")
        let full = try build(["build", "--full", "--out", fullFolder.path], into: fullFolder)
        published = incremental.tree

        if let problem = full.run.crash ?? incremental.run.crash {
            fail(step: step, problem)
            return true
        }
        let fullFailed = full.run.ending != .exited(0)
        if fullFailed {
            if incremental.run.ending != full.run.ending || incremental.errors != full.errors {
                fail(step: step, "the full build ended \(full.run.ending) with\n\(full.errors.joined(separator: "\n"))\nbut the incremental one \(incremental.run.ending) with\n\(incremental.errors.joined(separator: "\n"))")
            }
            if incremental.tree != before {
                fail(step: step, "a failed build changed public/:\n" + OutputTree.differences(before, incremental.tree, "before", "after").joined(separator: "\n"))
                try heal()
            }
        } else if incremental.run.ending != .exited(0) {
            fail(step: step, "the full build succeeded but the incremental one ended \(incremental.run.ending):\n\(incremental.errors.joined(separator: "\n"))")
            try heal()
        } else if incremental.tree != full.tree {
            fail(step: step, "public/ differs from a full build:\n" + OutputTree.differences(incremental.tree, full.tree, "public/", "the full build").joined(separator: "\n"))
            try heal()
        } else {
            // The summary counts each file of the output once.
            let summary = String(decoding: incremental.run.output, as: UTF8.self)
            let files = incremental.tree.files.keys.count { !$0.hasSuffix("/") && $0 != OutputTree.marker }
            if let counted = try Regex(#"\((\d+) files?, "#).firstMatch(in: summary).flatMap({ $0.output[1].substring }).flatMap({ Int($0) }), counted != files {
                fail(step: step, "the build says \(counted) files, public/ has \(files):\n\(summary)")
            }
            // A build right after a good one finds nothing changed: the good one kept a state
            // naming every file. Without it every build would be a full one, which no comparison
            // of outputs sees.
            let again = try ProcessRun.tomo(["build"], in: site, timeout: .seconds(300))
            let said = String(decoding: again.output, as: UTF8.self)
            if again.ending != .exited(0) || !said.contains("Nothing changed since the last build") {
                fail(step: step, "a build right after a good build did not find nothing changed (\(again.ending)):\n\(said)\(again.error)")
            }
        }
        if let outcome, let preview {
            try checkPreview(preview, outcome, step: step, full: fullFailed ? nil : full.tree)
        }
        return fullFailed
    }

    /// `public/` made whole again after a mismatch, so that later steps are judged on their own.
    func heal() throws {
        _ = try ProcessRun.tomo(["build", "--full"], in: site, timeout: .seconds(300))
        published = OutputTree(publicFolder)
    }

    func checkPreview(_ preview: LoggedPreview, _ outcome: LoggedPreview.Outcome, step: Int, full: OutputTree?) throws {
        var expected = lastGoodServed
        if var full {
            if edits.state.config.baseURL != preview.url {
                // site.yaml names another address than the preview's: build for the preview's.
                let folder = folder.appendingPathComponent("for-preview")
                let built = try build(["build", "--full", "--out", folder.path, "--base-url", preview.url], into: folder)
                if built.run.ending != .exited(0) { fail(step: step, "the build with --base-url \(preview.url) failed: \(built.errors)") }
                full = built.tree
            }
            expected = full.servedFiles
        }
        if full == nil, previewHasNoGoodSite { return }
        previewHasNoGoodSite = false
        var problems: [String] = []
        switch (outcome, full == nil) {
        case (.rebuilt, true): problems.append("tomo serve rebuilt where the build fails")
        case (.failed(let messages), false): problems.append("tomo serve failed where the build succeeds:\n\(messages)")
        default: break
        }
        for (path, bytes) in expected.files.sorted(by: { $0.key < $1.key }) {
            let reply = try preview.get(path)
            if reply.status != 200 {
                problems.append("serves \(path) with status \(reply.status), the build has it")
            } else if reply.body != bytes {
                problems.append("serves \(path) with other bytes than the build:\n" + OutputTree.firstDifference(reply.body, bytes, "served", "built"))
            }
            if problems.count >= 8 { break }
        }
        for path in everServed.subtracting(expected.files.keys).sorted() {
            let reply = try preview.get(path)
            if reply.status != 404 { problems.append("serves \(path) with status \(reply.status), the build does not have it") }
            if problems.count >= 8 { break }
        }
        everServed.formUnion(expected.files.keys)
        if full != nil { lastGoodServed = expected }
        guard !problems.isEmpty else { return }
        fail(step: step, "tomo serve:\n" + problems.joined(separator: "\n"))
        // Judge later steps on a fresh preview on the same port (the site's address may name
        // it), or on none when another process took the port meanwhile: the mismatch is told.
        preview.stop()
        self.preview = try? LoggedPreview(site: site, port: preview.port)
        previewHasNoGoodSite = full == nil
    }

    struct Built {
        var run: ProcessRun
        var errors: [String]
        var tree: OutputTree
    }

    func build(_ arguments: [String], into output: URL) throws -> Built {
        if output != publicFolder { try? FileManager.default.removeItem(at: output) }
        let run = try ProcessRun.tomo(arguments, in: site, timeout: .seconds(300))
        let errors = run.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") }
        return Built(run: run, errors: errors, tree: OutputTree(output))
    }

    func fail(step: Int, _ problem: String) {
        failures.append(Failure(seed: seed, step: step, problem: problem, steps: steps, kept: folder.path))
    }
}

extension ProcessRun {
    /// What makes a build's run no result at all: a crash or a hang.
    var crash: String? {
        switch ending {
        case .signalled, .timedOut: return "a build ended \(ending): \(error.suffix(2000))"
        case .exited(let status): return status == 0 || status == 1 ? nil : "a build exited with status \(status): \(error.suffix(2000))"
        }
    }
}

/// A folder's tree: every file by path with its bytes, every folder as `path/` (so a folder
/// left empty shows), every link as `path` → `link to …`.
struct OutputTree: Equatable, ExpressibleByDictionaryLiteral {
    var files: [String: [UInt8]]

    /// The marker a build keeps in its output folder; no page of the site.
    static let marker = ".tomo-output"

    init(dictionaryLiteral elements: (String, [UInt8])...) {
        files = Dictionary(elements) { $1 }
    }

    init(_ folder: URL) {
        files = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return }
        while let path = walker.nextObject() as? String {
            // tomo's record of its files names the folder's own marker: no part of the site.
            if path == OutputBookkeeping.record { continue }
            let url = folder.appendingPathComponent(path)
            var status = stat()
            guard lstat(url.path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: files[path + "/"] = []
            case S_IFLNK: files[path] = Array("link to \((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?")".utf8)
            default: files[path] = (try? Array(Data(contentsOf: url))) ?? Array("unreadable".utf8)
            }
        }
    }

    /// What `tomo serve` serves of a build: its files, without folders and the marker.
    var servedFiles: OutputTree {
        var served = self
        served.files = files.filter { !$0.key.hasSuffix("/") && $0.key != Self.marker }
        return served
    }

    /// The first differing paths of two trees, with the first differing line of a changed file.
    static func differences(_ one: OutputTree, _ other: OutputTree, _ oneName: String, _ otherName: String) -> [String] {
        var found: [String] = []
        for path in Set(one.files.keys).union(other.files.keys).sorted() {
            switch (one.files[path], other.files[path]) {
            case (nil, _): found.append("  only in \(otherName): \(path)")
            case (_, nil): found.append("  only in \(oneName): \(path)")
            case (let a?, let b?) where a != b: found.append("  differs: \(path)\n" + firstDifference(a, b, oneName, otherName))
            default: continue
            }
            if found.count == 8 {
                found.append("  …")
                break
            }
        }
        return found
    }

    /// The first line where two files differ, from each.
    static func firstDifference(_ one: [UInt8], _ other: [UInt8], _ oneName: String, _ otherName: String) -> String {
        let a = String(decoding: one, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let b = String(decoding: other, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        let shown = { (lines: [Substring]) in line < lines.count ? String(lines[line].prefix(300)).debugDescription : "(no line)" }
        return "    line \(line + 1) in \(oneName): \(shown(a))\n    line \(line + 1) in \(otherName): \(shown(b))"
    }
}
