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

/// Runs `executable` with `arguments` in `directory`, capturing what it prints; `environment`
/// adds to (or replaces in) this process's.
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Both pipes are drained at once: a process that fills one while the other is read to its
    // end would wait for ever.
    let errorData = Mutex(Data())
    let readingError = DispatchGroup()
    DispatchQueue.global().async(group: readingError) {
        let data = error.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    readingError.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
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

/// This repository: its demo site is `content/` and `templates/`.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The demo site (8 users, 24 photo posts, pages, a store), copied into a fresh folder, with
/// its thumbnails and share cards already in the cache: a test's first build does not spend
/// seconds encoding them.
func demoSiteCopy() throws -> TemporaryFolder {
    let site = try TemporaryFolder()
    for folder in ["content", "templates"] {
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(folder), to: site.url.appendingPathComponent(folder))
    }
    if let demoImageCache {
        try FileManager.default.createDirectory(at: site.url.appendingPathComponent(".tomo-cache"), withIntermediateDirectories: true)
        for folder in demoCacheFolders {
            try FileManager.default.copyItem(at: demoImageCache.appendingPathComponent(folder), to: site.url.appendingPathComponent(".tomo-cache/" + folder))
        }
    }
    return site
}

/// The folders of `.tomo-cache` that hold what images the demo makes.
private let demoCacheFolders = ["images", "cards"]

/// The demo's thumbnails and cards, made once and kept beside the test binary from run to run
/// (a cache: a missing or stale file only costs an encode).
private let demoImageCache: URL? = {
    let cache = tomoBinary().deletingLastPathComponent().appendingPathComponent("tomo-tests-demo-cache")
    if FileManager.default.fileExists(atPath: cache.path) { return cache }
    guard let site = try? TemporaryFolder() else { return nil }
    for folder in ["content", "templates"] {
        try? FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(folder), to: site.url.appendingPathComponent(folder))
    }
    guard runTomo(["build"], in: site.url).status == 0 else { return nil }
    try? FileManager.default.moveItem(at: site.url.appendingPathComponent(".tomo-cache"), to: cache)
    return demoCacheFolders.allSatisfy { FileManager.default.fileExists(atPath: cache.appendingPathComponent($0).path) } ? cache : nil
}()

/// Every file under `folder` (hidden ones too) with its bytes, by path relative to it.
func fileTree(_ folder: URL) -> [String: Data] {
    var found: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: folder.path)
    while let path = walker?.nextObject() as? String {
        // tomo's record of the files it made (`OutputBookkeeping`): no part of the site.
        if path == OutputBookkeeping.record || path.hasSuffix("/" + OutputBookkeeping.record) { continue }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
            found[path] = FileManager.default.contents(atPath: folder.path + "/" + path)
        }
    }
    return found
}

/// What `tomo build --full` makes of `site` as it is now, in a fresh folder: what any build's
/// output must be.
func fullBuildOutput(of site: URL) throws -> [String: Data] {
    let elsewhere = try TemporaryFolder()
    let output = elsewhere.url.appendingPathComponent("site")
    let run = try ProcessRun.tomo(["build", "--full", "--out", output.path], in: site)
    guard run.ending == .exited(0) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the reference build failed: \(run)"]) }
    return fileTree(output)
}

/// The paths where two file trees differ, for a failure message.
func differences(_ tree: [String: Data], _ other: [String: Data]) -> [String] {
    Set(tree.keys).union(other.keys).filter { tree[$0] != other[$0] }.sorted()
}
