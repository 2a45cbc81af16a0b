import Foundation
import Testing
import TomoCore
import TomoStore
@testable import TomoCLI
import TomoTestSupport

/// A site for batch tests: content/site.yaml, a batch file, posts on demand.
private struct BatchSite {
    let folder: TemporaryFolder
    var url: URL { folder.url }
    var storeURL: URL { url.appendingPathComponent("content/store.json") }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("content/site.yaml", "title: Test\n")
    }

    /// Writes `lines` to batch.txt and runs `tomo batch batch.txt` in-process.
    func batch(_ lines: [String], _ extra: String...) throws -> CommandResult {
        try folder.write("batch.txt", lines.joined(separator: "\n") + "\n")
        return runTomo(["batch", "batch.txt"] + extra, in: url)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path) }

    func storeBytes() -> Data? { FileManager.default.contents(atPath: storeURL.path) }

    func store() throws -> Store { try StoreFile(site: url).read() }

    func writePost(_ id: String, visibility: String = "public") throws { try folder.writePost(id, visibility: visibility) }
}

/// Counts the renames onto `content/store.json` (each store write is one) while `body` runs.
private func storeWrites(in site: URL, during body: () throws -> Void) throws -> Int {
    let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    try #require(watcher >= 0)
    defer { close(watcher) }
    // IN_CREATE too, for the temporary file: the kernel merges identical events in a row, so
    // two renames onto store.json with nothing between them would read as one.
    try #require(inotify_add_watch(watcher, site.appendingPathComponent("content").path, UInt32(IN_MOVED_TO | IN_CREATE)) >= 0)
    try body()
    var writes = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(watcher, &buffer, buffer.count)
        guard count > 0 else { break }
        // struct inotify_event: wd, mask, cookie, len (4 bytes each), then a NUL-padded name.
        var offset = 0
        while offset + 16 <= count {
            let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
            let name = String(decoding: buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
            let mask = UInt32(buffer[offset + 4]) | UInt32(buffer[offset + 5]) << 8 | UInt32(buffer[offset + 6]) << 16 | UInt32(buffer[offset + 7]) << 24
            if name == "store.json", mask & UInt32(IN_MOVED_TO) != 0 { writes += 1 }
            offset += 16 + length
        }
    }
    return writes
}

@Suite struct BatchCommandTests {
    @Test func appliesEveryLineWithOneWrite() throws {
        let site = try BatchSite()
        try site.writePost("bob/sunset")
        var result = CommandResult(status: -1, output: "", error: "")
        let writes = try storeWrites(in: site.url) {
            result = try site.batch([
                "user add alice --name \"Alice Example\"",
                "user add bob",
                "user add carol",
                "follow alice bob",
                "follow carol bob",
                "like alice bob/sunset",
                "like carol bob/sunset",
                "block bob carol",
            ])
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(writes == 1)
        #expect(result.output.hasPrefix("applied 8 commands (8 changed, 0 unchanged) in "))
        let store = try site.store()
        #expect(store.users.map(\.handle) == ["alice", "bob", "carol"])
        #expect(runTomo(["user", "show", "alice", "--json"], in: site.url).output.contains(#""name": "Alice Example""#))
        // The block removed carol's follow and like, as `tomo block` alone does.
        #expect(store.following("alice") == ["bob"])
        #expect(store.following("carol") == [])
        #expect(store.likes.first?.users == ["alice"])
        #expect(site.exists("content/users/alice.yaml") && site.exists("content/users/carol.yaml"))
        // The count is real: two commands on their own write twice.
        let separate = try storeWrites(in: site.url) {
            _ = runTomo(["unfollow", "alice", "bob"], in: site.url)
            _ = runTomo(["follow", "alice", "bob"], in: site.url)
        }
        #expect(separate == 2)
    }

    /// Words split as a POSIX shell splits them: inside double quotes a backslash escapes only
    /// `$`, `` ` ``, `"` and `\`, and stays before anything else (`"C:\new"`).
    @Test(arguments: [
        (#"a "C:\new folder" b"#, ["a", #"C:\new folder"#, "b"]),
        (#""q \" \\ \$x \`y""#, [#"q " \ $x `y"#]),
        (#"'C:\new' C:\new"#, [#"C:\new"#, "C:new"]),
    ])
    func wordsAreSplitAsAShellSplitsThem(line: String, words: [String]) throws {
        #expect(try BatchScript.words(ArraySlice(line.utf8)) == words)
    }

    /// A line asking for help is refused at its line and prints nothing, with --verbose too; a
    /// folder given as the batch file is named as one.
    @Test func aLineAskingForHelpPrintsNothingAndAFolderIsNamed() throws {
        let site = try BatchSite()
        let lines = site.url.appendingPathComponent("lines.txt")
        try "user add k --help\n".write(to: lines, atomically: false, encoding: .utf8)
        let help = runTomo(["batch", lines.path, "--verbose"], in: site.url)
        #expect(help.status == 1 && help.output.isEmpty, "\(help.output)")
        #expect(help.error.contains("lines.txt:1: `user add k --help` is not a store command"))
        let folder = runTomo(["batch", site.url.path], in: site.url)
        #expect(folder.status == 1 && folder.error.contains("it is a folder"), "\(folder.error)")
    }

    /// A pipe given as the file (`tomo batch <(grep … commands.txt)`, or a named pipe) is read
    /// to its end, as `-` reads standard input.
    @Test func aPipeGivenAsTheFileIsRead() throws {
        let site = try BatchSite()
        let pipe = site.url.appendingPathComponent("lines.fifo")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        // The writer's open waits for the reader, as a shell's `<(…)` does.
        DispatchQueue.global().async {
            guard let writer = FileHandle(forWritingAtPath: pipe.path) else { return }
            writer.write(Data("user add alice\nuser add bob\n".utf8))
            try? writer.close()
        }
        let result = runTomo(["batch", pipe.path], in: site.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(try site.store().users.map(\.handle) == ["alice", "bob"])
    }

    /// The batch runs the commands' own code: the same lines one by one leave the same store
    /// (times aside) and the same files.
    @Test func aBatchLeavesWhatTheCommandsAloneLeave() throws {
        let lines = [
            "user add alice --name 'Alice A'", "user add bob", "user add carol", "user add dave",
            "user set bob --approve-follows on", "follow alice bob", "follow carol bob", "accept bob alice",
            "decline bob carol", "follow bob alice", "follow dave alice", "like bob alice/sunset",
            "like carol alice/sunset", "unlike bob alice/sunset", "report carol alice/sunset --reason \"too dark\"",
            "post hide alice/sunset", "pick alice bob accept", "pick bob alice accept", "block alice dave",
            "user rename carol caroline", "user rm dave --yes",
        ]
        let alone = try BatchSite()
        let batched = try BatchSite()
        for site in [alone, batched] { try site.writePost("alice/sunset") }
        for line in lines {
            let words = try BatchScript.words(ArraySlice(line.utf8))
            #expect(runTomo(words, in: alone.url).status == 0, "\(line)")
        }
        #expect(try batched.batch(lines).status == 0)
        func withoutTimes(_ data: Data?) -> String {
            String(decoding: data ?? Data(), as: UTF8.self).replacing(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/, with: "TIME")
        }
        #expect(withoutTimes(batched.storeBytes()) == withoutTimes(alone.storeBytes()))
        for path in ["content/users/alice.yaml", "content/users/bob.yaml", "content/users/caroline.yaml", "content/users/carol.yaml", "content/users/dave.yaml"] {
            #expect(batched.exists(path) == alone.exists(path), "\(path)")
        }
        #expect(batched.exists("content/users/caroline.yaml") && !batched.exists("content/users/dave.yaml"))
        #expect(try batched.store().reports.first?.user == "caroline")
        // The rename is recorded, for the redirects.
        #expect(try batched.store().renames.map { "\($0.from)>\($0.to)" } == ["carol>caroline"])
    }

    @Test func skipsBlankLinesAndCommentsAndAcceptsALeadingTomo() throws {
        let site = try BatchSite()
        let result = try site.batch([
            "# the users",
            "",
            "   ",
            "tomo user add alice   # the first one",
            "\tuser add bob",
            "follow alice bob\r",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("applied 3 commands (3 changed, 0 unchanged)"))
        #expect(try site.store().following("alice") == ["bob"])
    }

    /// A file saved with a byte order mark (as Notepad saves one) reads from its first command.
    @Test func aByteOrderMarkBeforeTheFirstLineIsReadPast() throws {
        let site = try BatchSite()
        let result = try site.batch(["\u{FEFF}user add alice", "user add bob"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try site.store().users.map(\.handle) == ["alice", "bob"])
    }

    /// A batch makes its lines' requests within a millisecond or two: `tomo requests` lists
    /// them in the order they were made, not by the requester's handle.
    @Test func requestsOfOneBatchAreListedInTheOrderTheyWereMade() throws {
        let site = try BatchSite()
        let result = try site.batch([
            "user add bob", "user set bob --approve-follows on", "user add zed", "user add mia", "user add amy",
            "follow zed bob", "follow mia bob", "follow amy bob",
        ])
        #expect(result.status == 0, "\(result.error)")
        let listed = runTomo(["requests", "bob"], in: site.url)
        #expect(listed.output.split(separator: "\n").map(String.init) == ["zed", "mia", "amy"], "\(listed.output)")
        #expect(runTomo(["requests", "bob", "--json"], in: site.url).output.filter { !$0.isWhitespace } == #"["zed","mia","amy"]"#)
        // A later command reads the order back from the file and keeps it.
        #expect(runTomo(["user", "add", "ann"], in: site.url).status == 0)
        #expect(runTomo(["follow", "ann", "bob"], in: site.url).status == 0)
        #expect(runTomo(["requests", "bob"], in: site.url).output.split(separator: "\n").map(String.init) == ["zed", "mia", "amy", "ann"])
    }

    @Test func repeatedLinesCountAsUnchanged() throws {
        let site = try BatchSite()
        let result = try site.batch(["user add alice", "user add bob", "follow alice bob", "follow alice bob", "user add bob"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("applied 5 commands (3 changed, 2 unchanged)"))
        let again = try site.batch(["follow alice bob"])
        #expect(again.output.hasPrefix("applied 1 command (0 changed, 1 unchanged)"))
    }

    /// A line that changes a content file and not the store (a new display name, a starter
    /// profile for a user registered without one) is a change; the same name again is not.
    @Test func aLineThatChangesOnlyAFileCountsAsChanged() throws {
        let site = try BatchSite()
        #expect(try site.batch(["user add zz --name Old"]).status == 0)
        let renamed = try site.batch(["user set zz --name New", "user set zz --name New"])
        #expect(renamed.output.hasPrefix("applied 2 commands (1 changed, 1 unchanged)"), "\(renamed.output)")
        #expect(try String(contentsOf: site.url.appendingPathComponent("content/users/zz.yaml"), encoding: .utf8).contains("name: \"New\""))
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("content/users/zz.yaml"))
        let restored = try site.batch(["user add zz"])
        #expect(restored.output.hasPrefix("applied 1 command (1 changed, 0 unchanged)"), "\(restored.output)")
        #expect(site.exists("content/users/zz.yaml"))
    }

    /// Text that is not UTF-8, on the real binary's command line or in a batch line, is
    /// refused, never written into a profile with U+FFFD for the bad bytes.
    @Test func textThatIsNotUTF8IsRefusedNotRepaired() throws {
        let site = try BatchSite()
        #expect(try site.batch(["user add zz --name Old"]).status == 0)
        let profile = site.url.appendingPathComponent("content/users/zz.yaml")
        let before = try Data(contentsOf: profile)
        // The byte 0xFF put into the last argument by the shell: Swift strings cannot hold it.
        let typed = try ProcessRun.tomo(["user", "set", "zz", "--name"], in: site.url, wrapper: ["/bin/sh", "-c", #"exec "$0" "$@" "$(printf 'Z\377Z')""#])
        #expect(typed.ending == .exited(2), "\(typed)")
        #expect(typed.error.contains("argument 5 is not UTF-8 text"), "\(typed.error)")
        try site.folder.write("batch.txt", bytes: Array("user set zz --name \"Y".utf8) + [0xFF] + Array("Y\"\n".utf8))
        let batched = runTomo(["batch", "batch.txt"], in: site.url)
        #expect(batched.status == 1)
        #expect(batched.error.contains("batch.txt:1: \"Y\u{FFFD}Y\" is not UTF-8 text"), "\(batched.error)")
        #expect(try Data(contentsOf: profile) == before)
    }

    @Test func printsEachLineOnlyWhenVerbose() throws {
        let site = try BatchSite()
        let quiet = try site.batch(["user add alice", "user add bob"])
        #expect(quiet.output.split(separator: "\n").count == 1)
        let verbose = try site.batch(["user add alice", "follow alice bob"], "--verbose")
        #expect(verbose.output.hasPrefix("unchanged: alice is already registered\nalice now follows bob\nkept content/users/alice.yaml: alice has a profile already\napplied 2 commands (1 changed, 1 unchanged)"))
    }

    /// Each failing line is reported as FILE:LINE, after earlier lines that would have changed
    /// the store and written a profile: neither happens.
    @Test(arguments: [
        ("follow alice zed", "batch.txt:4: unknown user \"zed\""),
        ("follow alice", "batch.txt:4: missing B: the user to follow (usage: tomo follow A B)"),
        ("follow alice bob --now", "batch.txt:4: unknown option --now for `tomo follow`"),
        ("follow alice alice", "batch.txt:4: alice cannot follow themselves"),
        ("like alice bob/secret", "batch.txt:4: bob/secret is not public"),
        ("like alice bob/nothing", "batch.txt:4: no post bob/nothing"),
        ("build", "batch.txt:4: `tomo build` cannot be in a batch"),
        ("user list", "batch.txt:4: `tomo user list` cannot be in a batch"),
        ("batch batch.txt", "batch.txt:4: `tomo batch` cannot be in a batch"),
        ("folow alice bob", "batch.txt:4: unknown command `folow` (did you mean \"follow\"?)"),
        ("follow alice bob --site elsewhere", "batch.txt:4: --site cannot be given on a line"),
        ("follow --help", "batch.txt:4: `follow --help` is not a store command"),
        ("user add \"zed", "batch.txt:4: unterminated \" quote"),
        ("tomo", "batch.txt:4: unknown command `tomo`"),
    ])
    func aFailingLineIsReportedAndLeavesEverythingAsItWas(line: String, message: String) throws {
        let site = try BatchSite()
        try site.writePost("bob/secret", visibility: "private")
        #expect(try site.batch(["user add alice", "user add bob"]).status == 0)
        let before = try #require(site.storeBytes())
        let result = try site.batch(["user add carol", "follow alice bob", "", line, "user add dave"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: " + message), "\(result.error)")
        #expect(result.output == "")
        #expect(site.storeBytes() == before)
        #expect(!site.exists("content/users/carol.yaml"))
    }

    @Test func anUnreadableFileIsAnError() throws {
        let site = try BatchSite()
        let result = runTomo(["batch", "missing.txt"], in: site.url)
        #expect(result.status == 1)
        #expect(result.error.contains("cannot read missing.txt"))
        #expect(!site.exists("content/store.json"))
    }

    @Test func userFilesMoveAndGoOnlyAfterTheStoreWrite() throws {
        let site = try BatchSite()
        try site.writePost("alice/sunset")
        let result = try site.batch(["user add alice", "user add bob", "user rename alice ally", "user rm bob --yes"])
        #expect(result.status == 0, "\(result.error)")
        #expect(site.exists("content/users/ally.yaml") && site.exists("content/posts/ally/sunset.md"))
        #expect(!site.exists("content/users/alice.yaml") && !site.exists("content/users/bob.yaml"))
        #expect(try site.store().users.map(\.handle) == ["ally"])
    }

    @Test func readsStandardInputThroughThePipeOfTheRealBinary() throws {
        let site = try BatchSite()
        let process = Process()
        process.executableURL = tomoBinary()
        process.arguments = ["batch", "-", "--site", site.url.path]
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data("user add alice\nuser add bob\nfollow alice bob\nfollow bob zed\n".utf8))
        try input.fileHandleForWriting.close()
        let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(errorText.hasPrefix("error: <stdin>:4: unknown user \"zed\""))
        #expect(!site.exists("content/store.json"))
    }

    /// 2,000 users, 20,000 follows and 2,000 likes in random order: no timing assertion, it
    /// only has to finish (a quadratic store would take minutes).
    @Test func aLargeBatchCompletes() throws {
        let site = try BatchSite()
        let users = (0..<2000).map { "u\($0)" }
        for user in users.prefix(200) { try site.writePost("\(user)/p") }
        var generator = SystemRandomNumberGenerator()
        var follows = Set<String>()
        while follows.count < 20000 {
            let (a, b) = (Int.random(in: 0..<2000, using: &generator), Int.random(in: 0..<2000, using: &generator))
            if a != b { follows.insert("follow u\(a) u\(b)") }
        }
        let likes = (0..<2000).map { index in "like \(users[(index * 7 + 1) % 2000]) u\(index % 200)/p" }
        let lines = users.shuffled().map { "user add \($0)" } + Array(follows) + likes
        let result = try site.batch(lines)
        #expect(result.status == 0, "\(result.error)")
        let store = try site.store()
        #expect(store.users.count == 2000)
        #expect(store.follows.count == 20000)
        #expect(store.likes.reduce(0) { $0 + $1.users.count } == Set(likes).count)
    }

    /// A handle, slug or post id typed a million characters long is quoted shortened in the
    /// message: its first 40 characters, "…" and its length, not a message a megabyte long.
    @Test func aLongIdentifierIsQuotedShortened() throws {
        let site = try BatchSite()
        let long = String(repeating: "x", count: 1_000_000)
        let quoted = "\"\(String(repeating: "x", count: 40))…\" (1,000,000 characters)"
        let results = [
            try site.batch(["user add \(long)"]),
            runTomo(["user", "add", long], in: site.url),
            runTomo(["like", "x", "x/\(long)"], in: site.url),
        ]
        for result in results {
            #expect(result.status == 1)
            #expect(result.error.utf8.count < 300, "\(result.error.prefix(300))")
            #expect(result.error.contains(quoted), "\(result.error.prefix(300))")
        }
        #expect(results[0].error.contains("handle \(quoted) is longer than 30 characters"), "\(results[0].error.prefix(300))")
        #expect(results[2].error.contains("post \"x/\(String(repeating: "x", count: 38))…\" (1,000,002 characters): slug \(quoted) is longer than 80 characters"), "\(results[2].error.prefix(300))")
    }
}
