import Foundation
import Synchronization
import TomoCore

/// How a run of the real `tomo` binary ended, with what it printed.
struct ProcessRun: CustomStringConvertible {
    enum Ending: Equatable {
        case exited(Int32)
        /// Killed by a signal (a crash: SIGILL for a Swift trap, SIGSEGV, SIGABRT, SIGPIPE).
        case signalled(Int32)
        /// Still running after the time allowed (then killed).
        case timedOut
    }

    var ending: Ending
    var output: [UInt8]
    var error: String

    var outputText: String { String(decoding: output, as: UTF8.self) }

    var description: String {
        "\(ending), stdout \(outputText.prefix(300).debugDescription), stderr \(error.prefix(2000).debugDescription)"
    }

    /// Where standard output goes.
    enum Output {
        /// A pipe the test reads.
        case pipe
        /// A pipe whose reading end is closed before the start: every write meets EPIPE.
        case closedPipe
        /// A file opened for writing (`/dev/full`).
        case file(String)
        /// No descriptor 1 at all (`>&-`).
        case closed
    }

    /// Runs the `tomo` binary built beside the tests with `arguments` in `directory`, killing it
    /// after `timeout`. Standard input is empty; standard error is a pipe the test reads, or
    /// goes where standard output goes (`2>&1`).
    static func tomo(_ arguments: [String], in directory: URL, output: Output = .pipe, errorToOutput: Bool = false, timeout: Duration = .seconds(30)) throws -> ProcessRun {
        let process = Process()
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        switch output {
        case .closed:
            // Only a shell can start a program with a descriptor closed; `exec` makes its ending tomo's.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" "$@" >&-"#, tomoBinary().path] + arguments
        default:
            process.executableURL = tomoBinary()
            process.arguments = arguments
        }
        let outputPipe = Pipe()
        var outputFile: FileHandle?
        switch output {
        case .pipe, .closed:
            process.standardOutput = outputPipe
        case .closedPipe:
            try outputPipe.fileHandleForReading.close()
            process.standardOutput = outputPipe
        case .file(let path):
            outputFile = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            process.standardOutput = outputFile
        }
        let errorPipe = Pipe()
        process.standardError = errorToOutput ? process.standardOutput : errorPipe

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // The child has its own copies of the writing ends; each end is closed here once done
        // with, or a fuzzer's thousands of runs would run out of descriptors.
        try? outputPipe.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        try? outputFile?.close()
        defer {
            try? outputPipe.fileHandleForReading.close()
            try? errorPipe.fileHandleForReading.close()
        }
        // Both pipes are drained while it runs, so a talkative run never blocks on a full pipe.
        let captured = Mutex<(output: [UInt8], error: [UInt8])>(([], []))
        let readers = DispatchGroup()
        if case .pipe = output {
            DispatchQueue.global().async(group: readers) {
                let bytes = Array(outputPipe.fileHandleForReading.readDataToEndOfFile())
                captured.withLock { $0.output = bytes }
            }
        }
        if !errorToOutput {
            DispatchQueue.global().async(group: readers) {
                let bytes = Array(errorPipe.fileHandleForReading.readDataToEndOfFile())
                captured.withLock { $0.error = bytes }
            }
        }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout.seconds) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        readers.wait()
        let (outputBytes, errorBytes) = captured.withLock { $0 }
        let ending: Ending = timedOut ? .timedOut
            : process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus)
            : .exited(process.terminationStatus)
        return ProcessRun(ending: ending, output: outputBytes, error: String(decoding: errorBytes, as: UTF8.self))
    }
}
