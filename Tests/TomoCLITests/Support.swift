import Foundation
import Synchronization
@testable import TomoCLI

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
