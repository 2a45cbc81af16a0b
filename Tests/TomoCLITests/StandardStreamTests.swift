import Foundation
import Testing
import TomoTestSupport

/// The real binary with its standard output closed, broken or full: never a crash, and never a
/// command stopped half way. A reader that went away is the command's own exit status, said
/// nothing about; any other failure is exit 1 with a message.
@Suite struct StandardStreamTests {
    /// A site with three users, so `user list` prints several lines.
    static func site() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        #expect(runTomo(["init", folder.url.path]).status == 0)
        for handle in ["ana", "ben", "cai"] { #expect(runTomo(["user", "add", handle, "--site", folder.url.path]).status == 0) }
        return folder
    }

    /// Commands that print on standard output, each of which once trapped in `FileHandle.write`.
    static let printingCommands: [[String]] = [["help"], ["--version"], ["user", "list"], ["user", "list", "--json"], ["user", "show", "ana"], ["build"], ["check"], ["post", "list"]]

    @Test(arguments: printingCommands)
    func aReaderThatWentAwayIsAQuietExit(command: [String]) throws {
        let site = try Self.site()
        let run = try ProcessRun.tomo(command, in: site.url, output: .closedPipe)
        #expect(run.ending == .exited(0), "\(run)")
        #expect(!run.error.contains("error"), "\(run)")
    }

    @Test func aReaderThatWentAwayAfterAnErrorExitsWithOne() throws {
        let site = try Self.site()
        try site.write("content/users/ana.yaml", "name: [unclosed\n")
        // Errors and results share the broken pipe, as in `tomo check 2>&1 | head -1`.
        let run = try ProcessRun.tomo(["check"], in: site.url, output: .closedPipe, errorToOutput: true)
        #expect(run.ending == .exited(1), "\(run)")
    }

    /// Store commands print their first line before they write the profile or move the files:
    /// with nobody reading (`| true`) or no descriptor at all (`>&-`), each still does all of it.
    @Test(arguments: [ProcessRun.Output.closedPipe, .closed])
    func aStoreCommandWithoutItsReaderStillDoesAllItsWork(output: ProcessRun.Output) throws {
        let site = try Self.site()
        let status: Int32 = if case .closed = output { 1 } else { 0 }
        let files = FileManager.default
        func exists(_ path: String) -> Bool { files.fileExists(atPath: site.url.appendingPathComponent(path).path) }

        let add = try ProcessRun.tomo(["user", "add", "dee"], in: site.url, output: output)
        #expect(add.ending == .exited(status), "\(add)")
        #expect(exists("content/users/dee.yaml"), "the starter profile was written")

        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("content/users/alice/icon.jpg")
        #expect(runTomo(["post", "add", "ana", photo.path, "--slug", "sun", "--alt", "Sun", "--site", site.url.path]).status == 0)
        let rename = try ProcessRun.tomo(["user", "rename", "ana", "anna"], in: site.url, output: output)
        #expect(rename.ending == .exited(status), "\(rename)")
        #expect(exists("content/users/anna.yaml") && !exists("content/users/ana.yaml"), "the profile moved")
        #expect(exists("content/posts/anna/sun.md") && !exists("content/posts/ana"), "the posts moved")

        let remove = try ProcessRun.tomo(["user", "rm", "ben", "--yes"], in: site.url, output: output)
        #expect(remove.ending == .exited(status), "\(remove)")
        #expect(!exists("content/users/ben.yaml"), "the profile was removed")
        #expect(runTomo(["check", "--site", site.url.path]).status == 0, "the store and the files agree")
    }

    @Test(arguments: printingCommands)
    func aFullDiskIsExitOneWithAMessage(command: [String]) throws {
        let site = try Self.site()
        let run = try ProcessRun.tomo(command, in: site.url, output: .file("/dev/full"))
        #expect(run.ending == .exited(1), "\(run)")
        #expect(run.error.hasSuffix("error: cannot write to standard output: No space left on device\n"), "\(run)")
    }

    @Test(arguments: printingCommands)
    func aClosedStandardOutputIsExitOneWithAMessage(command: [String]) throws {
        let site = try Self.site()
        let run = try ProcessRun.tomo(command, in: site.url, output: .closed)
        #expect(run.ending == .exited(1), "\(run)")
        #expect(run.error.hasSuffix("error: cannot write to standard output: Bad file descriptor\n"), "\(run)")
    }

    @Test func aBuildWithStandardOutputClosedWritesItsSummaryIntoNoFile() throws {
        let site = try Self.site()
        let run = try ProcessRun.tomo(["build"], in: site.url, output: .closed)
        #expect(run.ending == .exited(1), "\(run)")
        // Descriptor 1 was free: a file opened during the build could have received the summary.
        let enumerator = FileManager.default.enumerator(at: site.url, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let text = String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
            #expect(!text.contains("Built "), "\(url.path)")
        }
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/ana/index.html").path))
    }

    /// Closing the terminal window (SIGHUP) stops a preview as Ctrl-C does: cleanly, status 0,
    /// its temporary files gone (a second preview's copy of the site stayed in /tmp).
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP]) func serveStopsCleanlyOnEachStopSignal(signal: Int32) throws {
        let (process, output, finished) = try Self.serving(Self.site())
        #expect(Self.stop(process, with: signal, finished: finished))
        try output.fileHandleForReading.close()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason.rawValue) \(process.terminationStatus)")
    }

    @Test func serveStopsQuietlyWhenItsOutputPipeClosesWhileItRuns() throws {
        // Its output read until it says where it serves, then gone (`tomo serve | head -1`, or
        // `| tee log` stopped with Ctrl-C: tee dies first).
        let (process, output, finished) = try Self.serving(Self.site())
        try output.fileHandleForReading.close()
        #expect(Self.stop(process, with: SIGINT, finished: finished))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// `tomo serve` on `site`, its standard output read until it says where it serves; the pipe
    /// and a semaphore signalled when it ends.
    static func serving(_ site: TemporaryFolder) throws -> (Process, Pipe, DispatchSemaphore) {
        let process = Process()
        process.executableURL = tomoBinary()
        process.arguments = ["serve", "--port", String(Int.random(in: 20_000...40_000))]
        process.currentDirectoryURL = site.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("Serving") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        return (process, output, finished)
    }

    /// Sends `signal` until the process ends (one sent before the server waits for it is
    /// ignored), for up to 30 s; whether it ended (else it is killed).
    static func stop(_ process: Process, with signal: Int32, finished: DispatchSemaphore) -> Bool {
        var stopped = false
        for _ in 0..<60 where !stopped {
            kill(process.processIdentifier, signal)
            stopped = finished.wait(timeout: .now() + 0.5) == .success
        }
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        return stopped
    }
}
