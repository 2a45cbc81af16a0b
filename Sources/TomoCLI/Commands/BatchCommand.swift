import Foundation
import TomoCore
import TomoStore

/// `tomo batch FILE|-`: many store commands in one transaction.
enum BatchCommand {
    static let spec = CommandSpec(
        path: ["batch"],
        summary: "Apply many store commands at once: all of them or none",
        arguments: [ArgumentSpec("FILE", "the commands, one per line; - reads standard input", kind: .path)],
        options: [.flag("verbose", "print each line's outcome, as the command alone would")],
        discussion: """
        Each line is a store command with the same words as on the command line, without the
        leading `tomo` (a leading `tomo` is allowed too); blank lines and # comments are
        skipped, quotes work as in a shell. The commands run in order under one lock and the
        store is written once, or not at all: the first failing line is reported as
        FILE:LINE: message and the store is left as it was. Profile files that `user add`
        writes and the files `user rm`/`user rename` delete or move change only after the
        store was written.

        Allowed: \(allowed.map(\.name).joined(separator: ", ")).

        Examples:
          tomo batch graph.txt
          grep -v '^tomo like' store-commands.txt | tomo batch - --verbose
        """,
        run: { invocation in try run(invocation) }
    )

    /// The commands that change the store; everything else is refused at its line.
    static let allowed: [CommandSpec] = [
        UserCommands.add, UserCommands.set, UserCommands.remove, UserCommands.rename,
        StoreCommands.follow, StoreCommands.unfollow, StoreCommands.accept, StoreCommands.decline,
        StoreCommands.block, StoreCommands.unblock,
        PostRelationCommands.like, PostRelationCommands.unlike, PostRelationCommands.report,
        PostRelationCommands.hide, PostRelationCommands.unhide,
        DatingCommands.pick,
    ]

    private static func run(_ invocation: Invocation) throws -> Int32 {
        let site = try invocation.siteDirectory()
        // Its lines' content files are changed in the batch's one turn (`holdingFilesLock`),
        // taken before the store's lock, as every command takes them.
        return try StoreFile(site: site).holdingFilesLock { try runHolding(invocation, site: site) }
    }

    private static func runHolding(_ invocation: Invocation, site: URL) throws -> Int32 {
        let started = ContinuousClock.now
        let script = try read(invocation.arguments[0], invocation)
        let console = invocation.console
        // Per-line output only on request: an import of 700,000 lines would otherwise print as many.
        let lineConsole = invocation.flag("verbose") ? console : Console { _, _ in }

        var counts = (changed: 0, unchanged: 0)
        // Lines that left the store as it was: one whose file change changes a file is a change.
        var unchangedLines: Set<Int> = []
        var failure: BatchLineError?
        var fileChanges: [StoreBatch.FileChange] = []
        _ = try StoreFile(site: site).update { store throws(Diagnostic) in
            // Bulk inserts: the import's follows and likes are sorted into place once, at the write.
            store.beginBulkInserts()
            let batch = StoreBatch(site: site, store: store)
            store = Store()  // the batch now holds the only copy, so every rule changes it in place
            do throws(BatchLineError) {
                try script.forEachCommand { line, words in
                    var lineInvocation = try storeCommand(words, invocation, console: lineConsole)
                    lineInvocation.batch = batch
                    batch.startLine(line)
                    _ = try lineInvocation.command.run(lineInvocation)
                    if batch.lineChanged {
                        counts.changed += 1
                    } else {
                        counts.unchanged += 1
                        unchangedLines.insert(line)
                    }
                }
            } catch {
                // Kept for after the lock (this closure throws only store errors); reporting
                // "unchanged" makes `update` write nothing.
                failure = error
                return .unchanged("nothing applied")
            }
            (store, fileChanges) = batch.finish()
            return counts.changed > 0 ? .changed("batch applied") : .unchanged("batch changed nothing")
        }
        if let failure { throw failure }

        for change in fileChanges {
            do {
                if try change.apply(), unchangedLines.remove(change.line) != nil {
                    counts.changed += 1
                    counts.unchanged -= 1
                }
            } catch {
                let applied = "the store was written with every line; the content files of this line and the ones after it were not changed"
                throw BatchLineError(file: script.name, line: change.line, message: "\(error) (\(applied))")
            }
        }
        let seconds = started.duration(to: .now).seconds
        console.line("applied \(Plural.count(counts.changed + counts.unchanged, "command")) (\(counts.changed) changed, \(counts.unchanged) unchanged) in \(String(format: "%.2f", seconds)) s")
        return 0
    }

    /// Parses a line as the command line would, and refuses anything but a store command.
    private static func storeCommand(_ words: [String], _ batch: Invocation, console: Console) throws -> Invocation {
        // Parsed in silence: a line asking for help (`--help`, `help`) is refused, and prints
        // nothing, not even with --verbose.
        guard var invocation = try TomoCommandLine.parse(words, console: Console { _, _ in }, workingDirectory: batch.workingDirectory) else {
            throw Diagnostic("`\(words.joined(separator: " "))` is not a store command: only store commands can be in a batch")
        }
        invocation.console = console
        guard allowed.contains(where: { $0.path == invocation.command.path }) else {
            throw Diagnostic("`tomo \(invocation.command.name)` cannot be in a batch: only commands that change the store can (\(allowed.map(\.name).joined(separator: ", ")))")
        }
        if invocation.siteOption != nil {
            throw Diagnostic("--site cannot be given on a line: the whole batch applies to one site (give --site to `tomo batch`)")
        }
        return invocation
    }

    /// Whether `path` is a pipe or a device (`tomo batch <(grep … commands.txt)`): something to
    /// read once to its end, as `-` reads standard input, and not to open first to look at.
    private static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR
    }

    private static func read(_ path: String, _ invocation: Invocation) throws -> BatchScript {
        if path == "-" {
            return BatchScript(name: "<stdin>", bytes: Array(FileHandle.standardInput.readDataToEndOfFile()))
        }
        let file = invocation.path(path).path
        if isStream(file) {
            guard let handle = FileHandle(forReadingAtPath: file) else { throw Diagnostic("cannot read \(path): \(String(cString: strerror(errno)))") }
            return BatchScript(name: path, bytes: Array(handle.readDataToEndOfFile()))
        }
        switch RegularFile.read(file) {
        case .success(let bytes): return BatchScript(name: path, bytes: bytes)
        case .failure(let failure): throw Diagnostic("cannot read \(path): \(failure.reason)")
        }
    }
}
