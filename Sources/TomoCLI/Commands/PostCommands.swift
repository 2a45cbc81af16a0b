import Foundation
import TomoContent
import TomoCore
import TomoStore

/// `tomo post add|list|rm`: a user's photo posts in `content/posts/<handle>/`.
enum PostCommands {
    static let add = CommandSpec(
        path: ["post", "add"],
        summary: "Post a photo: copy it beside a new post file and print the post id",
        arguments: [ArgumentSpec("HANDLE", "the user who posts (registered, with a profile)"), ArgumentSpec("PHOTO", "the image file to post", kind: .path)],
        options: [
            OptionSpec("slug", value: "SLUG", "the post's name in its id and address (default: from the photo's file name)", type: ValueTypes.slug),
            OptionSpec("caption", value: "TEXT", "the caption, in Markdown"),
            OptionSpec("alt", value: "TEXT", "what the photo shows, for people who cannot see it"),
            OptionSpec("date", value: "ISO", "when it was posted (default: now, with this computer's UTC offset)", type: ValueTypes.date),
            OptionSpec("visibility", value: "V", "public (default), followers or private; only public posts are published", type: ValueTypes.visibility),
        ],
        discussion: """
        Copies PHOTO (\(ValueType<String>.listed(ContentPath.photoExtensions.map { "." + $0 }))) to
        content/posts/HANDLE/SLUG.EXT and writes content/posts/HANDLE/SLUG.md with its front
        matter (photo, date, alt, visibility) and the caption, then prints HANDLE/SLUG, the post
        id, alone on standard output.

        Without --slug the slug comes from the photo's file name (lower case, other characters
        than a-z and 0-9 become -); when that post exists, -2, -3 … is added. A --slug that is
        taken is refused. --date takes 2026-05-01T18:30:00+09:00, 2026-05-01 18:30 or
        2026-05-01; a time without an offset is taken as UTC.

        Example:
          tomo post add alice ~/Pictures/sunset.jpg --alt "Sunset over Tokyo Bay" --caption "The sky over **Odaiba**."
        """,
        run: { invocation in
            // The slug is chosen and the files written in one turn: two at once chose one slug.
            let (id, warnings) = try StoreCommandSupport.holdingFilesLock(invocation, site: invocation.siteDirectory()) {
                let post = try NewPost(invocation)
                return (post.id, try post.write())
            }
            for warning in warnings { TomoCommandLine.report(warning, on: invocation.console) }
            invocation.console.line(id)
            return 0
        }
    )

    static let list = CommandSpec(
        path: ["post", "list"],
        summary: "List the posts (or HANDLE's), newest first",
        arguments: [ArgumentSpec("HANDLE", "only this user's posts", optional: true)],
        options: [StoreCommandSupport.jsonOption],
        discussion: """
        Newest first by the instant of their date (time zones honoured), ties by id. Posts whose
        file has errors are left out and their errors printed (exit status 1).

        `--json` prints [{"id", "date", "visibility", "likes", "hidden"}], the date as written
        in the post file.

        Examples:
          tomo post list
          tomo post list alice --json
        """,
        run: { invocation in
            let handle = invocation.argument(0)
            if let handle, let problem = Identifiers.handleProblem(handle) { throw Diagnostic(problem) }
            let (store, site) = try StoreCommandSupport.read(invocation, sections: [.likes, .hidden])
            if let handle { _ = try store.requireUser(handle) }
            let (loaded, diagnostics) = ContentLoader.loadPosts(site: site, of: handle)
            let posts = Post.newestFirst(loaded)
            let console = invocation.console
            if invocation.flag("json") {
                StoreCommandSupport.printJSON(.array(posts.map { post in
                    .object([
                        "id": .string(post.id), "date": .string(post.dateText), "visibility": .string(post.visibility.rawValue),
                        "likes": .int(store.likeCount(post.id)), "hidden": .bool(store.isHidden(post.id)),
                    ])
                }), on: console)
            } else if posts.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
                // Only when every post folder was read: one that cannot be read may hold posts.
                console.line(console.paint("no posts yet: add one with `tomo post add \(handle ?? "HANDLE") PHOTO`", .dim))
            } else {
                let idWidth = posts.map(\.id.count).max() ?? 0
                let dateWidth = posts.map(\.dateText.count).max() ?? 0
                for post in posts {
                    let likes = store.likeCount(post.id)
                    let hidden = store.isHidden(post.id) ? console.paint("  hidden", .dim) : ""
                    let columns = [
                        post.dateText.padding(toLength: dateWidth, withPad: " ", startingAt: 0),
                        post.id.padding(toLength: idWidth, withPad: " ", startingAt: 0),
                        post.visibility.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
                        Plural.count(likes, "like"),
                    ]
                    console.line("\(columns.joined(separator: "  "))\(hidden)")
                }
            }
            let errors = diagnostics.filter { $0.severity == .error }
            for error in errors { TomoCommandLine.report(error, on: console) }
            return errors.isEmpty ? 0 : 1
        }
    )

    static let remove = CommandSpec(
        path: ["post", "rm"],
        summary: "Delete a post, its photo and every like, report and hidden mark of it",
        arguments: [ArgumentSpec("POST", "the post id, HANDLE/SLUG")],
        options: [.flag("yes", short: "y", "confirm: without it nothing is deleted")],
        discussion: """
        Deletes content/posts/HANDLE/SLUG.md and its photo (kept when another post of HANDLE
        shows the same file), and removes the post's likes, reports and hidden mark from the
        store. Without --yes it only says what it would delete (exit status 2). The files go
        first and the store last, so a removal stopped half way never publishes a hidden post;
        run the command again to finish it.

        Example:
          tomo post rm alice/sunset --yes
        """,
        run: { invocation in
            let post = try PostID(parsing: invocation.arguments[0])
            let site = try invocation.siteDirectory()
            // Whether another post shows the photo is told only while no other command changes
            // the folder's posts.
            return try StoreCommandSupport.holdingFilesLock(invocation, site: site) { try removePost(post, site: site, invocation: invocation) }
        }
    )

    private static func removePost(_ post: PostID, site: URL, invocation: Invocation) throws -> Int32 {
        let files = try PostFiles(site: site, post: post)
        let relations = try StoreFile(site: site).read(sections: [.likes, .reports, .hidden]).relations(of: post)
        // A removal stopped after the post file went leaves only the store's records to remove.
        if files.removable.isEmpty, relations.likes == 0, relations.reports == 0, !relations.hidden {
            throw Diagnostic("no post \(post): \(ContentPath.postFile(post.handle, post.slug + ".md")) does not exist")
        }
        let console = invocation.console
        var what = files.removable
        if relations.likes > 0 { what.append(Plural.count(relations.likes, "like")) }
        if relations.reports > 0 { what.append(Plural.count(relations.reports, "report")) }
        if relations.hidden { what.append("its hidden mark") }
        let notes = files.notes.map { " (\($0))" }.joined()
        try invocation.requireConfirmation(deleting: what, note: notes, target: post.description)
        for note in files.notes { console.warning(note) }
        // The files first, the store last: while the post file is there its hidden mark
        // stays, or a post a moderator hid would be published after a deletion that failed
        // (or a kill).
        for path in try files.removeInOrder() { console.line("deleted \(path)") }
        if relations.likes > 0 || relations.reports > 0 || relations.hidden {
            let outcome = try StoreFile(site: site).update(sections: [.likes, .reports, .hidden]) { store in store.removePost(post) }
            StoreCommandSupport.report(outcome, on: console)
        }
        return 0
    }
}

/// The files `tomo post rm` deletes: the post and its photo, unless another post shows it too.
private struct PostFiles {
    let site: URL
    /// Relative to the site: the post file first, then its photo (none when the post file is
    /// gone already).
    let removable: [String]
    /// Why a photo stays, for the person to know.
    let notes: [String]

    init(site: URL, post: PostID) throws(Diagnostic) {
        self.site = site
        let file = ContentPath.postFile(post.handle, post.slug + ".md")
        guard try FolderEntries.exists(file, in: site.path) else {
            removable = []
            notes = []
            return
        }
        guard let loaded = ContentLoader.loadPost(site: site, id: post.description).post else {
            removable = [file]
            notes = ["\(file) has errors, so its photo is not known: delete the photo yourself if no other post shows it"]
            return
        }
        // The same file, however it is named (another path, a link to it, a hard link).
        let photo = Self.identity(loaded.photoFile, in: site)
        let others = ContentLoader.loadPosts(site: site, of: post.handle)
        if let other = others.posts.first(where: { $0.id != loaded.id && Self.identity($0.photoFile, in: site) == photo }) {
            removable = [file]
            notes = ["kept \(loaded.photoFile): \(other.id) shows it too"]
        } else if let broken = others.diagnostics.first(where: { $0.severity == .error && $0.location?.file != file }) {
            removable = [file]
            notes = ["kept \(loaded.photoFile): \(broken.location?.file ?? "another post") has errors, so whether it shows the photo too is not known"]
        } else {
            removable = [file, loaded.photoFile]
            notes = []
        }
    }

    /// Deletes the files, the photo before the post file, which alone names it (for a run that
    /// finishes a removal stopped half way); the paths deleted.
    func removeInOrder() throws(Diagnostic) -> [String] {
        let paths = Array(removable.dropFirst()) + removable.prefix(1)
        for path in paths {
            do { try FileManager.default.removeItem(at: site.appendingPathComponent(path)) } catch {
                throw Diagnostic("cannot delete \(path): \(Diagnostic.reason(of: error)): make it removable, then run the command again")
            }
        }
        return paths
    }

    /// The file's device and inode, links followed (nil when it cannot be read).
    private static func identity(_ path: String, in site: URL) -> [UInt64]? {
        var status = stat()
        guard stat(site.path + "/" + path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
