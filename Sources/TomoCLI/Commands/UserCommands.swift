import Foundation
import TomoContent
import TomoCore
import TomoStore

/// `tomo user add|list|show|set|rm|rename`.
enum UserCommands {
    static let add = CommandSpec(
        path: ["user", "add"],
        summary: "Register a user and write a starter profile",
        arguments: [ArgumentSpec("HANDLE", "a-z, 0-9 and _, at most 30 characters")],
        options: [OptionSpec("name", value: "NAME", "the display name, written to the profile (default: the handle)", kind: .displayName)],
        discussion: """
        Registers HANDLE in the store as the newest user (the home page and `user list` show
        users in the order they were registered, newest first) and writes
        content/users/HANDLE.yaml unless a profile exists, with the name and commented examples
        of the other fields. An existing HANDLE.yaml, .json or .yml is kept and named (a .yml
        is not read: rename it to .yaml); no second profile is written.

        The display name lives only in the profile's `name`. With --name, an existing profile
        gets that name too (as `tomo user set HANDLE --name NAME`), whether or not HANDLE was
        registered already. A name the profile may not have (a control character such as an
        escape) is refused (exit status 2).

        Example:
          tomo user add alice --name "Alice Example"
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
            let site = try invocation.siteDirectory()
            // The profile and the schemas are written in one turn: two at once raced on the
            // schemas folder.
            return try StoreCommandSupport.holdingFilesLock(invocation, site: site) { try registerUser(handle, site: site, invocation: invocation) }
        }
    )

    private static func registerUser(_ handle: String, site: URL, invocation: Invocation) throws -> Int32 {
        try UserContentFiles(site: site, handle: handle).checkNoPage()
        let name = try invocation.option("name").map { try DisplayName.checked($0, handle: handle, site: site, usage: invocation.command.usage) }
        try UserContentFiles(site: site, handle: handle).checkProfileCanBeWritten(name: name)
        let known = try StoreCommandSupport.read(invocation, sections: [.users, .renames]).store
        if let (old, new) = try UserContentFiles.interruptedRename(involving: handle, store: known, site: site) {
            throw Diagnostic("the rename of \(old) to \(new) was stopped half way (the store has \(new), the files are still \(old)'s): run `tomo user rename \(old) \(new)` to finish it; registering \(handle) now would split \(old)'s profile from its posts, and publish posts the store hides under \(new)")
        }
        let outcome = try StoreCommandSupport.apply(invocation, sections: [.users, .hidden]) { store, _ throws(Diagnostic) in
            let added = try store.addUser(handle)
            // Marks a removal of an earlier holder left would hide a new post of the same name.
            _ = store.forgetHiddenMarks(of: handle) { post in UserContentFiles.postExists(post, site: site) }
            return added
        }
        StoreCommandSupport.report(outcome, on: invocation.console)
        try StoreCommandSupport.afterStoreWrite(invocation) {
            let files = UserContentFiles(site: site, handle: handle)
            guard let done = try name.map(files.setName) ?? files.writeStarterProfile(name: handle) else { return false }
            invocation.console.line(done.message)
            return done.wrote
        }
        return 0
    }

    static let list = CommandSpec(
        path: ["user", "list"],
        summary: "List the users, newest first",
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        Newest first is the order of registration (the last `tomo user add` first), never the
        clock: users registered in the same millisecond, as in one `tomo batch`, keep their
        order. Names are the profiles' `name`, as the profile pages show them. The columns
        are the handle, the name, the number of posts and followers, and when the user was
        registered.

        `--json` prints [{"handle", "name", "created"}]; name is null for a user without a
        readable profile.

        Example:
          tomo user list --json
        """,
        run: { invocation in
            // The follows only for the table's follower counts.
            let (store, site) = try StoreCommandSupport.read(invocation, sections: invocation.flag("json") ? [.users] : [.users, .follows])
            let users = store.usersNewestFirst
            let names = users.map(\.handle).concurrentMap { ProfileNames.name(of: $0, in: site) }
            let console = invocation.console
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(zip(users, names).map { user, name in
                    .object(["handle": .string(user.handle), "name": JSONValue(name), "created": .string(user.created)])
                }), on: console)
            } else if users.isEmpty {
                console.line(console.paint("no users yet: add one with `tomo user add HANDLE`", .dim))
            } else {
                var rows: [[ConsoleText]] = []
                let followerCounts = store.followerCounts
                for (user, name) in zip(users, names) {
                    let posts = try ContentLoader.postFileCount(of: user.handle, site: site)
                    rows.append(["\(user.handle)", ProfileNames.shown(name, on: console), "\(posts)", "\(followerCounts[user.handle] ?? 0)", console.paint(user.created, .dim)])
                }
                for line in ConsoleTable.lines(header: ["HANDLE", "NAME", "POSTS", "FOLLOWERS", "REGISTERED"], rows: rows, numeric: [2, 3]) {
                    console.line(line)
                }
            }
            return 0
        }
    )

    static let show = CommandSpec(
        path: ["user", "show"],
        summary: "Show a user's relations",
        arguments: [ArgumentSpec("HANDLE", "the user")],
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        `--json` prints {"handle", "name", "created", "following", "followers", "requests",
        "blocking", "posts"}, where the lists are handles and posts is a count.

        Example:
          tomo user show alice
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            let (store, site) = try StoreCommandSupport.read(invocation, sections: [.follows, .blocks])
            let user = try store.requireUser(handle)
            let lists: [(String, [String])] = [
                ("following", store.following(handle)),
                ("followers", store.followers(handle)),
                ("requests", store.requests(handle)),
                ("blocking", store.blocking(handle)),
            ]
            let posts = try ContentLoader.postFileCount(of: handle, site: site)
            let name = ProfileNames.name(of: handle, in: site)
            let console = invocation.console
            if invocation.flag("json") {
                var object: [String: JSONValue] = [
                    "handle": .string(user.handle), "name": JSONValue(name), "created": .string(user.created), "posts": .int(posts),
                ]
                for (key, handles) in lists { object[key] = .array(handles.map(JSONValue.string)) }
                StoreCommandSupport.printJSON(.object(object), on: console)
                return 0
            }
            console.line("\(console.paint(user.handle, .bold))  \(ProfileNames.shown(name, on: console))")
            console.line("created    \(user.created)")
            console.line("posts      \(posts)")
            for (key, handles) in lists {
                console.line(key.padding(toLength: 11, withPad: " ", startingAt: 0) + (handles.isEmpty ? "-" : handles.joined(separator: ", ")))
            }
            var settings = ["approve follows: \(user.approveFollows ? "on" : "off")"]
            if let location = user.location { settings.append("location: \(location.latitude),\(location.longitude)") }
            if let gender = user.gender { settings.append("gender: \(gender)") }
            if let seeking = user.seeking { settings.append("seeking: \(seeking)") }
            console.line(console.paint(settings.joined(separator: ", "), .dim))
            return 0
        }
    )

    static let set = CommandSpec(
        path: ["user", "set"],
        summary: "Change a user's display name or store settings",
        arguments: [ArgumentSpec("HANDLE", "the user")],
        options: [
            OptionSpec("name", value: "NAME", "the display name: written to the profile's `name`", kind: .displayName),
            OptionSpec("approve-follows", value: "on|off", "when on, follows wait for `tomo accept`", type: ValueTypes.onOff),
            OptionSpec("location", value: "LAT,LON", "where the user is, for `tomo discover` (none clears it)", type: ValueTypes.location),
            OptionSpec("gender", value: "G", "the user's gender, a word of your choice (none clears it)", type: ValueTypes.word),
            OptionSpec("seeking", value: "G", "the gender the user looks for in `tomo discover` (none clears it)", type: ValueTypes.word),
        ],
        discussion: """
        --name changes the profile's `name` in content/users/HANDLE.yaml (or .json) where it
        is written, leaving the rest of the file as it is (a user without a profile gets a
        starter profile). The other settings live only in the store and are never published.

        Examples:
          tomo user set alice --name "Alice Tanaka"
          tomo user set bob --approve-follows on
          tomo user set alice --location 35.6812,139.7671 --gender f --seeking m
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
            let settings = try UserSettings(invocation)
            let site = try invocation.siteDirectory()
            // The profile is written in one turn with the commands that write content files.
            return try StoreCommandSupport.holdingFilesLock(invocation, site: site) { try setUser(handle, settings: settings, site: site, invocation: invocation) }
        }
    )

    private static func setUser(_ handle: String, settings: UserSettings, site: URL, invocation: Invocation) throws -> Int32 {
        try UserContentFiles(site: site, handle: handle).checkNoPage()
        let name = try invocation.option("name").map { try DisplayName.checked($0, handle: handle, site: site, usage: invocation.command.usage) }
        if settings.changesStore {
            _ = try StoreCommandSupport.change(invocation, sections: [.users]) { store, _ throws(Diagnostic) in
                try store.updateUser(handle, settings.apply)
            }
        } else {
            _ = try StoreCommandSupport.read(invocation, sections: [.users]).store.requireUser(handle)
        }
        if let name {
            try StoreCommandSupport.afterStoreWrite(invocation) {
                let done = try UserContentFiles(site: site, handle: handle).setName(name)
                StoreCommandSupport.report(done.map { $0.wrote ? .changed($0.message) : .unchanged($0.message) } ?? .unchanged("\(handle)'s profile already has that name"), on: invocation.console)
                return done?.wrote ?? false
            }
        }
        return 0
    }

    static let remove = CommandSpec(
        path: ["user", "rm"],
        summary: "Delete a user, their relations, profile and posts",
        arguments: [ArgumentSpec("HANDLE", "the user")],
        options: [.flag("yes", short: "y", "confirm: without it nothing is deleted")],
        discussion: """
        Removes HANDLE from the store with every follow, request, block, like, report and pick
        that names them (the likes and reports on their posts, and the recorded renames that led
        to HANDLE, so their old addresses redirect nowhere), and deletes
        content/users/HANDLE.yaml (or .json), content/users/HANDLE/ and content/posts/HANDLE/.
        Without --yes it only says what it would delete (exit status 2).

        Example:
          tomo user rm mallory --yes
        """,
        run: { invocation in
            let handle = invocation.arguments[0]
            if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
            let site = try invocation.siteDirectory()
            // The files are deleted in one turn with the commands that write them.
            return try StoreCommandSupport.holdingFilesLock(invocation, site: site) { try removeUser(handle, site: site, invocation: invocation) }
        }
    )

    private static func removeUser(_ handle: String, site: URL, invocation: Invocation) throws -> Int32 {
        let files = UserContentFiles(site: site, handle: handle)
        let store = try StoreCommandSupport.read(invocation, sections: [.users, .hidden]).store
        let registered = store.user(handle) != nil
        // What a removal stopped half way left: the hidden marks of posts whose files were
        // still to be deleted.
        let marksLeft = store.hiddenMarksLeft(by: handle)
        // Neither registered nor with files: the unknown-user refusal, with its "did you mean".
        let existing = try files.existing
        if !registered && existing.isEmpty && marksLeft == 0 { _ = try store.requireUser(handle) }
        let marks = marksLeft > 0 ? ["the \(Plural.count(marksLeft, "hidden mark")) of \(handle)'s posts"] : []
        try invocation.requireConfirmation(deleting: (registered ? ["\(handle)'s store entry and relations"] : marks) + existing, target: handle)
        try files.checkReadable()
        if registered {
            let outcome = try StoreCommandSupport.apply(invocation, sections: StoreFile.allSections) { store, _ throws(Diagnostic) in
                store.user(handle) == nil ? .unchanged("\(handle) is not registered") : try store.removeUser(handle)
            }
            StoreCommandSupport.report(outcome, on: invocation.console)
        }
        try StoreCommandSupport.afterStoreWrite(invocation) {
            let deleted = try files.removeAll()
            for path in deleted { invocation.console.line("deleted \(path)") }
            // Only now that none of their post files is left may the hidden marks go.
            let forgotten = try StoreFile(site: site).update(sections: [.users, .hidden]) { store in
                store.forgetHiddenMarks(of: handle) { post in UserContentFiles.postExists(post, site: site) }
            }
            if forgotten.changed { StoreCommandSupport.report(forgotten, on: invocation.console) }
            return !deleted.isEmpty || forgotten.changed
        }
        return 0
    }

    static let rename = CommandSpec(
        path: ["user", "rename"],
        summary: "Change a user's handle everywhere",
        arguments: [ArgumentSpec("OLD", "the current handle"), ArgumentSpec("NEW", "the new handle")],
        discussion: """
        Rewrites every relation (follows, blocks, likes, reports, picks, hidden posts: post ids
        become NEW/slug) and moves content/users/OLD/, content/posts/OLD/ and
        content/users/OLD.yaml to NEW's places. Refused when NEW is taken. The store records the
        rename: later builds publish a redirect at each of OLD's addresses to NEW's, and
        /_redirects, until someone holds OLD again. Feed ids stay the same.

        The store changes first, then the files, in an order that leaves a rename stopped half
        way (a kill, a crash) to be finished: run the same command again. `tomo check` reports
        such a half-done rename.

        Example:
          tomo user rename alice alice_tokyo
        """,
        run: { invocation in
            let (old, new) = (invocation.arguments[0], invocation.arguments[1])
            for handle in [old, new] {
                if let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
            }
            let site = try invocation.siteDirectory()
            // The files are moved in one turn with the commands that write them.
            return try StoreCommandSupport.holdingFilesLock(invocation, site: site) { try renameUser(old, to: new, site: site, invocation: invocation) }
        }
    )

    private static func renameUser(_ old: String, to new: String, site: URL, invocation: Invocation) throws -> Int32 {
        let source = UserContentFiles(site: site, handle: old)
        let destination = UserContentFiles(site: site, handle: new)
        func moveFiles() throws {
            try StoreCommandSupport.afterStoreWrite(invocation) {
                let moves = try source.move(to: destination)
                for move in moves { invocation.console.line("moved \(move)") }
                return !moves.isEmpty
            }
        }
        let store = try StoreCommandSupport.read(invocation, sections: [.users, .renames]).store
        // The store already renamed OLD to NEW and files are left to move: the same command
        // finishes what was interrupted.
        if old != new, store.user(old) == nil, store.user(new) != nil, try source.leftBehind(renamingTo: destination) {
            try source.checkRename(to: destination, finishing: true)
            invocation.console.line("finishing the rename of \(old) to \(new) (the store has it already)")
            try moveFiles()
            return 0
        }
        // Done already (run again after it finished): nothing is taken, nothing to do.
        if old != new, store.user(old) == nil, store.user(new) != nil, store.renames.last(where: { $0.from == old })?.to == new {
            StoreCommandSupport.report(.unchanged("\(old) is renamed to \(new) already"), on: invocation.console)
            return 0
        }
        if old != new, let taken = try destination.conflicts.first {
            throw Diagnostic("\(taken) already exists: \(new) is taken; choose another handle")
        }
        if old != new { try destination.checkNoPage() }
        try source.checkRename(to: destination, finishing: false)
        let outcome = try StoreCommandSupport.apply(invocation, sections: StoreFile.allSections) { store, _ throws(Diagnostic) in
            try store.renameUser(old, to: new)
        }
        StoreCommandSupport.report(outcome, on: invocation.console)
        if outcome.changed { try moveFiles() }
        return 0
    }
}

/// The options of `tomo user set`, checked before the store is touched.
private struct UserSettings {
    var approveFollows: Bool?
    /// Outer nil: not given; inner nil: `none`, clear it.
    var location: Location??
    var gender: String??
    var seeking: String??

    init(_ invocation: Invocation) throws {
        approveFollows = try invocation.value("approve-follows", ValueTypes.onOff)
        location = try invocation.value("location", ValueTypes.location)
        gender = try invocation.value("gender", ValueTypes.word)
        seeking = try invocation.value("seeking", ValueTypes.word)
        if !changesStore && invocation.option("name") == nil {
            throw UsageError("nothing to set: give --name, --approve-follows, --location, --gender or --seeking", usage: invocation.command.usage)
        }
    }

    var changesStore: Bool { approveFollows != nil || location != nil || gender != nil || seeking != nil }

    func apply(_ user: inout User) {
        if let approveFollows { user.approveFollows = approveFollows }
        if let location { user.location = location }
        if let gender { user.gender = gender }
        if let seeking { user.seeking = seeking }
    }
}
