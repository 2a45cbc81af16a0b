import Foundation
import Testing
import TomoCore
import TomoStore
import TomoTestSupport

/// `tomo user rename` and `tomo user rm` stopped at any moment (a `kill -9`, a crash) leave a
/// site that `tomo check` says how to repair, and running the same command again finishes it.
@Suite(.serialized) struct InterruptedUserCommandTests {
    static let rename = ["user", "rename", "alice", "ann"]
    static let hint = "if `tomo user rename alice ann` was stopped half way, run it again to finish it"

    /// alice with an icon and a header in her folder, a post with its photo and a post a
    /// moderator hid (`secret`, "Hidden words"); bob follows her and likes the post. The same
    /// bytes every time (the store's times are fixed).
    static func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        try site.write("content/site.yaml", "title: Test\nbaseURL: https://example.com/\n")
        try site.write("content/store.json", """
            {"follows": [["bob","alice","2026-05-01T12:00:00.000Z"]], "hidden": ["alice/secret"], "likes": {"alice/sunset": ["bob"]}, "users": [
              {"approveFollows":false,"created":"2026-05-01T11:00:00.000Z","handle":"alice","sequence":1},
              {"approveFollows":false,"created":"2026-05-01T11:01:00.000Z","handle":"bob","sequence":2}
            ], "version": 2}
            """)
        try site.write("content/users/alice.yaml", "name: Alice\nicon: alice/icon.jpg\nheader: \"alice/header.jpg\"\n")
        try site.write("content/users/bob.yaml", "name: Bob\n")
        for path in ["content/users/alice/icon.jpg", "content/users/alice/header.jpg", "content/posts/alice/sunset.jpg"] {
            try site.copy(sampleJPEG, to: path)
        }
        try site.write("content/posts/alice/sunset.md", "---\nphoto: sunset.jpg\ndate: 2026-05-01\nalt: A sunset\n---\nEvening.\n")
        try site.copy(sampleJPEG, to: "content/posts/alice/secret.jpg")
        try site.write("content/posts/alice/secret.md", "---\nphoto: secret.jpg\ndate: 2026-05-02\nalt: A secret\n---\nHidden words.\n")
        return site
    }

    /// Whatever state a command stopped in, a build of `site` publishes nothing of the post a
    /// moderator hid: no page, feed entry, search entry or thumbnail (by name or by bytes).
    static func expectHiddenPostUnpublished(_ site: TemporaryFolder, _ context: String) throws {
        let output = try TemporaryFolder()
        let build = runTomo(["build", "--out", output.url.path], in: site.url)
        for (path, bytes) in fileTree(output.url) {
            #expect(!path.contains("secret"), "\(context): \(path) is published (build: \(build.error))")
            #expect(!String(decoding: bytes, as: UTF8.self).contains("Hidden words"), "\(context): \(path) shows the hidden post")
        }
    }

    /// The site's content a person sees: every file but the hidden ones (the store's lock and
    /// temporary file, which a kill may leave and which are harmless), with the time of the
    /// store's record of the rename left out (the one time each run gives anew).
    static func content(_ site: TemporaryFolder) -> [String: Data] {
        var files = fileTree(site.url.appendingPathComponent("content")).filter { !$0.key.split(separator: "/").contains { $0.hasPrefix(".") } }
        if let store = files["store.json"] {
            files["store.json"] = Data(String(decoding: store, as: UTF8.self).replacing(/\{"created":"[^"]*","from":/, with: "{\"created\":TIME,\"from\":").utf8)
        }
        return files
    }

    /// What `command` makes of the site when it runs whole.
    static func whole(_ command: [String]) throws -> [String: Data] {
        let site = try site()
        #expect(runTomo(command, in: site.url).status == 0)
        return content(site)
    }

    /// Kills `command` before each of its `steps` calls and at seeded moments of any file call
    /// (`PREFIX_SEED`/`PREFIX_RUNS` for more). After each kill no build publishes the hidden
    /// post, and the site is as it was (killed before the store changed), as after a whole run,
    /// or half done: then `tomo check` says what `report` gives for the site's content (each
    /// at least as often as given) and the same command run again makes it whole. How many
    /// kills left it half done.
    static func killAtEveryStep(_ command: [String], steps: String, report: ([String: Data]) -> [String], variables: String) throws -> Int {
        try #require(SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)")
        let plan = SeededRounds(variables: variables, rounds: 8)
        let expected = try whole(command)
        let calibration = try site()
        let counts = try SyscallFault.counts(command, in: calibration.url)
        var random = SplitMix64(seed: plan.seed)
        let moments = (1...max(counts[steps] ?? 1, 1)).map { SyscallFault.Moment(call: steps, number: $0) }
            + (0..<plan.rounds).map { _ in SyscallFault.moment(in: counts, using: &random) }
        var halfDone = 0
        for moment in moments {
            let site = try site()
            let before = content(site)
            let victim = try SyscallFault.run(command, in: site.url, .kill, at: moment)
            let context = "\(command.joined(separator: " ")), seed \(plan.seed), killed at \(moment): \(victim.ending)"
            try expectHiddenPostUnpublished(site, context)
            if try StoreFile(site: site.url).read().user("alice") != nil {
                // Killed before the store changed: nothing did.
                #expect(content(site) == before, "\(context): \(differences(content(site), before))")
                #expect(runTomo(command, in: site.url).status == 0, "\(context)")
            } else if content(site) != expected {
                halfDone += 1
                let check = runTomo(["check"], in: site.url)
                for (message, count) in Dictionary(report(content(site)).map { ($0, 1) }, uniquingKeysWith: +) {
                    #expect(check.error.components(separatedBy: message).count >= count + 1, "\(context): \(check.error)")
                }
                let again = runTomo(command, in: site.url)
                #expect(again.status == 0, "\(context): \(again.error)")
            }
            #expect(content(site) == expected, "\(context): \(differences(content(site), expected))")
            let check = runTomo(["check"], in: site.url)
            #expect(check.status == 0 && !check.error.contains("registered"), "\(context): \(check.error)")
        }
        print("kill test of \(command.joined(separator: " ")): seed \(plan.seed), \(moments.count) kills, \(halfDone) left it half done")
        return halfDone
    }

    /// Kills `command` before every one of its `calls` of each kind, checks `afterEachKill` on
    /// the site it left (with what to say on failure), runs it again when it left the site half
    /// done, and expects the site a whole run leaves. How many kills left it half done.
    static func killBeforeEachCall(
        _ command: [String], calls: [String], afterEachKill: (TemporaryFolder, String) throws -> Void = { _, _ in }
    ) throws -> Int {
        let expected = try whole(command)
        let calibration = try site()
        let counts = try SyscallFault.counts(command, in: calibration.url)
        var halfDone = 0
        for call in calls {
            for number in 1...max(counts[call] ?? 1, 1) {
                let moment = SyscallFault.Moment(call: call, number: number)
                let site = try site()
                let victim = try SyscallFault.run(command, in: site.url, .kill, at: moment)
                let context = "killed at \(moment): \(victim.ending)"
                try afterEachKill(site, context)
                if content(site) != expected {
                    halfDone += 1
                    let again = runTomo(command, in: site.url)
                    #expect(again.status == 0, "\(context): \(again.error)")
                }
                #expect(content(site) == expected, "\(context): \(differences(content(site), expected))")
            }
        }
        return halfDone
    }

    /// Before the store's write, each folder's move and the profile's replace and move, and at
    /// seeded moments.
    @Test func aRenameKilledAtAnyMomentIsFinishedByRunningItAgain() throws {
        let halfDone = try Self.killAtEveryStep(Self.rename, steps: "rename", report: { _ in [Self.hint, Self.hint] }, variables: "TOMO_USER_KILL")
        #expect(halfDone > 0, "no kill fell between the store's change and the last move: the test tested nothing")
    }

    /// Before each file it deletes (the folders first, the profile last) and at seeded moments.
    @Test func aRemovalKilledAtAnyMomentIsFinishedByRunningItAgain() throws {
        let halfDone = try Self.killAtEveryStep(
            ["user", "rm", "alice", "--yes"], steps: "unlink",
            report: { content in
                // The profile goes last, and the hidden marks after it.
                content["users/alice.yaml"] != nil
                    ? ["alice has a profile but is not registered", "(or delete their files with `tomo user rm alice --yes`)"]
                    : ["if `tomo user rm alice --yes` was stopped half way, run it again to finish it"]
            }, variables: "TOMO_USER_KILL"
        )
        #expect(halfDone > 0, "no kill fell between the store's change and the last deletion: the test tested nothing")
    }

    /// A rename run again after it finished says so and changes nothing, rather than calling
    /// the new handle taken by the very files it moved there.
    @Test func aRenameRunAgainAfterItFinishedSaysItIsDone() throws {
        let site = try Self.site()
        #expect(runTomo(Self.rename, in: site.url).status == 0)
        let after = Self.content(site)
        let again = runTomo(Self.rename, in: site.url)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.contains("unchanged: alice is renamed to ann already"), "\(again.output)")
        #expect(Self.content(site) == after)
    }

    /// `user add` killed before each of its writes, links and renames: the new profile is
    /// there whole or not at all (never an empty or cut-off file, which every `user add` after
    /// it would keep), and the same command run again leaves the site a whole run leaves.
    @Test func anAddKilledAtAnyMomentLeavesNoHalfProfile() throws {
        try #require(SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)")
        let command = ["user", "add", "carol", "--name", "Carol"]
        let expected = try Self.whole(command)
        let profile = "users/carol.yaml"
        let whole = try #require(expected[profile])
        let calibration = try Self.site()
        let counts = try SyscallFault.counts(command, in: calibration.url)
        let moments = ["write", "link", "rename"].flatMap { call in (1...max(counts[call] ?? 1, 1)).map { SyscallFault.Moment(call: call, number: $0) } }
        for moment in moments {
            let site = try Self.site()
            let victim = try SyscallFault.run(command, in: site.url, .kill, at: moment)
            let context = "killed at \(moment): \(victim.ending)"
            let left = Self.content(site)[profile]
            #expect(left == nil || left == whole, "\(context): the profile is \(left.map { "\($0.count) bytes" } ?? "missing")")
            let again = runTomo(command, in: site.url)
            #expect(again.status == 0, "\(context): \(again.error)")
            #expect(Self.content(site)[profile] == whole, "\(context)")
            let check = runTomo(["check"], in: site.url)
            #expect(check.status == 0, "\(context): \(check.error)")
        }
    }

    /// The hidden profile a killed `user add` can leave (`.bob.yaml.partial`, as a kill at its
    /// `link` leaves it) holds the handle: `user rm` deletes it with the rest.
    @Test func aRemovalDeletesTheHiddenProfileAKilledAddLeft() throws {
        let site = try Self.site()
        for leftover in ["content/users/.bob.yaml.partial", "content/users/.bob.json.partial"] {
            try site.write(leftover, "name: Bob\n")
        }
        let removed = runTomo(["user", "rm", "bob", "--yes"], in: site.url)
        #expect(removed.status == 0, "\(removed.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: site.url.appendingPathComponent("content/users").path)
        #expect(!names.contains { $0.contains("bob") }, "\(names)")
    }

    /// Every state a rename can stop in, made by hand: after the store changed, after each
    /// folder moved, with the profile pointed at the moved folder but not moved itself; and the
    /// one an older tomo left (the profile moved first, the folders not yet).
    @Test func everyHalfDoneStateIsReportedAndFinishedByTheSameCommand() throws {
        typealias Step = (TemporaryFolder) throws -> Void
        func move(_ from: String, _ to: String) -> Step {
            { site in try FileManager.default.moveItem(at: site.url.appendingPathComponent(from), to: site.url.appendingPathComponent(to)) }
        }
        let renameInStore: Step = { site in
            _ = try StoreFile(site: site.url).update { store throws(Diagnostic) in try store.renameUser("alice", to: "ann") }
        }
        let repoint: Step = { site in
            let file = site.url.appendingPathComponent("content/users/alice.yaml")
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "alice/", with: "ann/").write(to: file, atomically: true, encoding: .utf8)
        }
        let states: [(String, [Step])] = [
            ("the store renamed", [renameInStore]),
            ("the images folder moved", [renameInStore, move("content/users/alice", "content/users/ann")]),
            ("both folders moved", [renameInStore, move("content/users/alice", "content/users/ann"), move("content/posts/alice", "content/posts/ann")]),
            ("the profile pointed at the moved folder", [renameInStore, move("content/users/alice", "content/users/ann"), move("content/posts/alice", "content/posts/ann"), repoint]),
            ("an older tomo's order: the profile moved first", [renameInStore, move("content/users/alice.yaml", "content/users/ann.yaml")]),
        ]
        let renamed = try Self.whole(Self.rename)
        for (state, steps) in states {
            let site = try Self.site()
            for step in steps { try step(site) }
            let check = runTomo(["check"], in: site.url)
            if state.hasPrefix("an older") {
                // Every user has a profile and a registration: the posts left without a profile say what is wrong.
                #expect(check.status == 1, "\(state): \(check.error)")
            } else {
                // For the registration, the profile, and the hidden mark of a post not moved yet.
                #expect(check.error.components(separatedBy: Self.hint).count >= 3, "\(state): \(check.error)")
            }
            try Self.expectHiddenPostUnpublished(site, state)
            #expect(!check.error.contains("post unhide"), "\(state): \(check.error)")
            let again = runTomo(Self.rename, in: site.url)
            #expect(again.status == 0, "\(state): \(again.error)")
            #expect(Self.content(site) == renamed, "\(state): \(differences(Self.content(site), renamed))")
            #expect(runTomo(["check"], in: site.url).status == 0, "\(state)")
        }
    }

    /// Registering either side of a rename stopped half way would split the profile from its
    /// posts, and publish the posts the store hides under the new handle: `user add` refuses,
    /// naming the rename that finishes it.
    @Test func addingEitherSideOfAHalfDoneRenameIsRefused() throws {
        let site = try Self.site()
        _ = try StoreFile(site: site.url).update { store throws(Diagnostic) in try store.renameUser("alice", to: "ann") }
        let before = Self.content(site)
        for handle in ["alice", "ann"] {
            let added = runTomo(["user", "add", handle], in: site.url)
            #expect(added.status == 1, "\(handle): \(added.output)")
            #expect(added.error.contains("the rename of alice to ann was stopped half way (the store has ann, the files are still alice's): run `tomo user rename alice ann` to finish it"), "\(handle): \(added.error)")
            #expect(Self.content(site) == before)
        }
        try Self.expectHiddenPostUnpublished(site, "after the refusals")
    }

    /// The hidden marks of a removed user's posts go with their files, in a batch too, where
    /// the files go after the store is written: a new user of the handle who writes a post of
    /// the same name has it published.
    @Test func aNewHolderOfAHandleIsNotHiddenByTheMarksOfTheLast() throws {
        let site = try Self.site()
        try site.write("batch.txt", "user rm alice --yes\nuser add alice\n")
        let batch = runTomo(["batch", "batch.txt"], in: site.url)
        #expect(batch.status == 0, "\(batch.error)")
        #expect(try StoreFile(site: site.url).read().hiddenPosts.isEmpty)
        try site.copy(sampleJPEG, to: "content/posts/alice/secret.jpg")
        try site.write("content/posts/alice/secret.md", "---\nphoto: secret.jpg\ndate: 2026-05-03\nalt: A new one\n---\nNew words.\n")
        #expect(runTomo(["build"], in: site.url).status == 0)
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("public/alice/posts/secret/index.html").path))
    }

    /// Finishing never merges two users' files: a kind of file at both places is refused, with
    /// nothing moved.
    @Test func finishingRefusesFilesAtBothPlaces() throws {
        let site = try Self.site()
        _ = try StoreFile(site: site.url).update { store throws(Diagnostic) in try store.renameUser("alice", to: "ann") }
        try site.write("content/posts/ann/other.md", "---\nphoto: other.jpg\n---\n")
        let before = Self.content(site)
        let again = runTomo(Self.rename, in: site.url)
        #expect(again.status == 1)
        #expect(again.error.contains("both content/posts/alice and content/posts/ann exist"), "\(again.error)")
        #expect(Self.content(site) == before)
    }

    /// With several candidates on a side, the hint names them all rather than guessing a pair.
    @Test func severalCandidatesAreAllNamed() throws {
        let site = try Self.site()
        _ = try StoreFile(site: site.url).update { store throws(Diagnostic) in try store.renameUser("alice", to: "ann") }
        try site.write("content/users/carol.yaml", "name: Carol\n")
        let check = runTomo(["check"], in: site.url)
        #expect(check.error.contains("ann is registered but has no profile, so no page is built for them (if `tomo user rename OLD ann` was stopped half way, run it again to finish it; OLD is one of alice, carol)"), "\(check.error)")
        #expect(check.error.contains("carol has a profile but is not registered in content/store.json (if `tomo user rename carol ann` was stopped half way"), "\(check.error)")
    }
}

/// `tomo post add` stopped at any moment leaves the post whole or not at all, or only its
/// photo: the same command run again then finishes the post, as a whole run leaves it.
@Suite(.serialized) struct InterruptedPostAddTests {
    @Test(arguments: [true, false]) func aPostAddKilledAtAnyMomentIsFinishedByRunningItAgain(namedSlug: Bool) throws {
        try #require(SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)")
        let photo = try TemporaryFolder()
        try photo.copy(sampleJPEG, to: "sunset.jpg")
        let command = ["post", "add", "alice", photo.url.appendingPathComponent("sunset.jpg").path, "--alt", "A sunset", "--date", "2026-05-02"]
            + (namedSlug ? ["--slug", "evening"] : [])
        let halfDone = try InterruptedUserCommandTests.killBeforeEachCall(command, calls: ["write", "link", "unlink"])
        #expect(halfDone > 0, "no kill left the post unmade: the test tested nothing")
    }
}

/// `tomo init` stopped at any moment: the same init run again makes the whole site (a file it
/// finds with the very bytes it would write is one it wrote before it was stopped).
@Suite(.serialized) struct InterruptedInitTests {
    @Test func anInitKilledAtAnyMomentIsFinishedByRunningItAgain() throws {
        try #require(SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)")
        let whole = try TemporaryFolder()
        #expect(runTomo(["init", "site"], in: whole.url).status == 0)
        let expected = Set(fileTree(whole.url.appendingPathComponent("site")).keys)
        let calibration = try TemporaryFolder()
        let counts = try SyscallFault.counts(["init", "site"], in: calibration.url)
        for call in ["write", "link", "rename"] {
            for number in 1...max(counts[call] ?? 1, 1) {
                let moment = SyscallFault.Moment(call: call, number: number)
                let folder = try TemporaryFolder()
                let victim = try SyscallFault.run(["init", "site"], in: folder.url, .kill, at: moment)
                let context = "killed at \(moment): \(victim.ending)"
                let again = runTomo(["init", "site"], in: folder.url)
                let site = folder.url.appendingPathComponent("site")
                // Killed after the last file: the site is whole, and the second init refuses it.
                #expect(again.status == 0 || again.error.contains("already holds a site"), "\(context): \(again.error)")
                // A kill may leave the hidden file a write was filling (replaced by the next
                // write of that file), nothing else.
                let left = Set(fileTree(site).keys).filter { !$0.hasSuffix(".partial") && !$0.hasSuffix(".tmp") }
                #expect(left == expected, "\(context): \(left.symmetricDifference(expected).sorted())")
                #expect(runTomo(["check"], in: site).status == 0, "\(context)")
            }
        }
    }
}

/// `tomo post rm` of a hidden post stopped at any moment (a kill; a folder it may not delete in
/// fails the same way): the files go before the store's records, so no build publishes the
/// post a moderator hid, and the same command run again finishes the removal.
@Suite(.serialized) struct InterruptedPostRemovalTests {
    @Test func aRemovalOfAHiddenPostKilledAtAnyMomentNeverPublishesIt() throws {
        try #require(SyscallFault.isAvailable, "needs strace, allowed to trace (apt-get install strace)")
        let halfDone = try InterruptedUserCommandTests.killBeforeEachCall(
            ["post", "rm", "alice/secret", "--yes"], calls: ["unlink", "rename"], afterEachKill: InterruptedUserCommandTests.expectHiddenPostUnpublished
        )
        #expect(halfDone > 0, "no kill fell between the first deletion and the store's write: the test tested nothing")
    }
}
