import Foundation
import TomoTestSupport

/// The real `tomo` binary run under strace with a fault at one system call of one thread: killed
/// by SIGKILL as it enters the call, exactly as a `kill -9` at that moment would kill it, or the
/// call failing with an error. A test so reaches every moment of a command (between two renames
/// of a commit, after the store is written and before a file moves), where sleeping before a
/// kill lands there only by luck.
enum SyscallFault {
    private static let strace = "/usr/bin/strace"
    /// The calls that change files or the process's view of them.
    static let fileCalls = ["openat", "write", "rename", "unlink", "unlinkat", "mkdir", "link", "rmdir", "fsync", "flock"]

    /// Whether strace is installed and may trace here (a container may forbid ptrace).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: strace),
              let run = try? runProcess(URL(fileURLWithPath: strace), ["-o", "/dev/null", "/bin/true"], in: URL(fileURLWithPath: "/"))
        else { return false }
        return run.status == 0
    }()

    enum Fault {
        case kill
        /// The call fails with this errno name (`EACCES`).
        case error(String)

        var injection: String {
            switch self {
            case .kill: "signal=SIGKILL"
            case .error(let name): "error=\(name)"
            }
        }
    }

    /// A call of the run: the `number`-th `call` made by any one of its threads.
    struct Moment: CustomStringConvertible {
        var call: String
        var number: Int
        var description: String { "\(call) #\(number)" }
    }

    /// `tomo ARGUMENTS` in `directory`, with `fault` at `moment`.
    static func run(_ arguments: [String], in directory: URL, _ fault: Fault, at moment: Moment) throws -> ProcessRun {
        try ProcessRun.tomo(arguments, in: directory, wrapper: [
            strace, "-f", "-o", "/dev/null", "-e", "trace=\(moment.call)",
            "-e", "inject=\(moment.call):\(fault.injection):when=\(moment.number)",
        ])
    }

    /// How many times the busiest thread makes each of `fileCalls` in a run of `arguments` in
    /// `directory`, the moments a fault can be put at. The run really happens: give it a copy.
    static func counts(_ arguments: [String], in directory: URL) throws -> [String: Int] {
        let log = try TemporaryFolder()
        let file = log.url.appendingPathComponent("trace")
        _ = try ProcessRun.tomo(arguments, in: directory, wrapper: [strace, "-f", "-o", file.path, "-e", "trace=" + fileCalls.joined(separator: ",")])
        var perThread: [String: Int] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            // `PID call(arguments…`; a call resumed on a later line (`<... call resumed>`) is not another one.
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let call = parts[1].drop { $0 == " " }
            guard let open = call.firstIndex(of: "("), call.first?.isLetter == true else { continue }
            perThread["\(parts[0]) \(call[..<open])", default: 0] += 1
        }
        var counts: [String: Int] = [:]
        for (key, count) in perThread {
            let call = String(key.split(separator: " ")[1])
            counts[call] = max(counts[call] ?? 0, count)
        }
        return counts
    }

    /// One of the moments in `counts`, drawn from `random`: a call, then one of its numbers,
    /// early ones more often (a smaller run than the counted one makes fewer calls).
    static func moment(in counts: [String: Int], using random: inout SplitMix64) -> Moment {
        let call = random.pick(counts.keys.sorted())
        let share = Double.random(in: 0..<1, using: &random)
        return Moment(call: call, number: 1 + Int(Double(max(counts[call] ?? 1, 1) - 1) * share * share))
    }
}

/// The seed and the number of rounds of a seeded test: `PREFIX_SEED` and `PREFIX_RUNS` when
/// set (`make fuzz`), else the fixed seed and the few rounds `make test` runs.
struct SeededRounds {
    var seed: UInt64 = 13
    var rounds: Int

    init(variables prefix: String, rounds: Int) {
        let environment = ProcessInfo.processInfo.environment
        self.rounds = environment[prefix + "_RUNS"].flatMap { Int($0) } ?? rounds
        if let seed = environment[prefix + "_SEED"].flatMap({ UInt64($0) }) { self.seed = seed }
    }
}
