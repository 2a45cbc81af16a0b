import Foundation
import Synchronization
@testable import TomoCLI
import TomoTestSupport

/// What a command printed and returned, captured in memory.
struct CommandResult {
    var status: Int32
    var output: String
    var error: String
}

/// Runs the CLI in-process, as `tomo ARGS` would run in `directory`.
func runTomo(_ arguments: [String], in directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> CommandResult {
    let captured = Mutex<(output: String, error: String)>(("", ""))
    let console = Console { stream, text in
        captured.withLock { buffers in
            switch stream {
            case .output: buffers.output += text
            case .error: buffers.error += text
            }
        }
    }
    let status = TomoCommandLine.run(arguments, console: console, workingDirectory: directory)
    let (output, error) = captured.withLock { $0 }
    return CommandResult(status: status, output: output, error: error)
}

/// The `tomo` executable built next to the test bundle.
func tomoBinary() -> URL {
    var folder = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("tomo").path), folder.path != "/" {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent("tomo")
}

/// Runs the real `tomo` binary as a separate process.
func runBinary(_ arguments: [String], in directory: URL) throws -> CommandResult {
    try runProcess(tomoBinary(), arguments, in: directory)
}

/// Runs `executable` with `arguments` in `directory`, capturing what it prints.
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData, as: UTF8.self))
}

extension TemporaryFolder {
    /// A minimal post file `content/posts/<id>.md` (its photo is not needed by store commands).
    func writePost(_ id: String, visibility: String = "public") throws {
        try write("content/posts/\(id).md", "---\nphoto: p.jpg\ndate: 2026-05-01T18:30:00+09:00\nvisibility: \(visibility)\n---\nHi.\n")
    }
}

/// The demo's small real JPEG (`content/users/alice/icon.jpg` of this repository).
let sampleJPEG = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("content/users/alice/icon.jpg")
