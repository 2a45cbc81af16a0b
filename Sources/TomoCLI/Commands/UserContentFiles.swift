import Foundation
import TomoContent
import TomoCore
import TomoSite
import TomoStore
import TomoYAML

/// A user's files under `content/`: the profile (`users/H.yaml` or `.json`), its images folder
/// (`users/H/`) and the posts folder (`posts/H/`). Handles are validated before they get here,
/// so every path stays inside the site.
struct UserContentFiles {
    let site: URL
    let handle: String

    var profileYAML: String { ContentPath.profileFile(handle) }
    var profileFiles: [String] { [profileYAML, ContentPath.profileFile(handle, format: "json")] }
    var imagesFolder: String { ContentPath.userFile(handle) }
    var postsFolder: String { ContentPath.postsFolder(of: handle) }
    /// In the order `user rm` deletes them and `user rename` moves them: the profile last, so a
    /// command stopped half way leaves the profile, which `tomo check` then reports unregistered
    /// with the command that finishes the job.
    var relativePaths: [String] { [imagesFolder, postsFolder] + profileFiles }

    /// The paths that exist, relative to the site; an error when a folder on the way cannot be
    /// read, which is not "there is none" (`user rm` would leave the file and say nothing).
    var existing: [String] {
        get throws(Diagnostic) {
            var found: [String] = []
            for path in relativePaths where try FolderEntries.exists(path, in: site.path) { found.append(path) }
            return found
        }
    }

    func url(_ relativePath: String) -> URL { site.appendingPathComponent(relativePath) }

    /// Whether `post`'s file is in `site` (an error reading the way counts as there: a mark is
    /// never dropped for a post that may be there).
    static func postExists(_ post: PostID, site: URL) -> Bool {
        (try? FolderEntries.exists(ContentPath.postFile(post.handle, post.slug + ".md"), in: site.path)) ?? true
    }

    /// The rename stopped half way that `handle` is a side of, as `(old, new)`: the store has
    /// `new` (registered, no profile yet) where the latest rename of `old` led, and `old` is not
    /// registered but still has its profile. Registering either side then would split a
    /// user's profile from their posts (`tomo user add`); nil when there is none.
    static func interruptedRename(involving handle: String, store: Store, site: URL) throws(Diagnostic) -> (old: String, new: String)? {
        func isHalfDone(_ old: String, _ new: String) throws(Diagnostic) -> Bool {
            guard old != new, store.user(old) == nil, store.user(new) != nil, store.renames.last(where: { $0.from == old })?.to == new else { return false }
            let oldHasProfile = try UserContentFiles(site: site, handle: old).hasProfile
            let newHasProfile = try UserContentFiles(site: site, handle: new).hasProfile
            return oldHasProfile && !newHasProfile
        }
        if let new = store.renames.last(where: { $0.from == handle })?.to, try isHalfDone(handle, new) { return (handle, new) }
        for rename in store.renames.reversed() where rename.to == handle {
            if try isHalfDone(rename.from, handle) { return (rename.from, handle) }
        }
        return nil
    }

    /// The free page at this handle's address (`content/pages/HANDLE.md`), if there is one: a
    /// user of that handle would take the page's place, which a build refuses.
    var page: String? {
        get throws(Diagnostic) {
            let path = ContentPath.pageFile(handle + ".md")
            return try FolderEntries.exists(path, in: site.path) ? path : nil
        }
    }

    /// Throws when a free page has this handle's address.
    func checkNoPage() throws(Diagnostic) {
        if let page = try page {
            throw Diagnostic("\(page) is the page at /\(handle)/: \(handle) is taken; choose another handle, or rename the page")
        }
    }

    var hasProfile: Bool {
        get throws(Diagnostic) { try existing.contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") } }
    }

    /// The profile file that exists, if any: `H.yaml` or `H.json`, or `H.yml`, which tomo does
    /// not read (`tomo check` says to rename it) but which is the user's profile all the same.
    var existingProfile: String? {
        get throws(Diagnostic) {
            for path in profileFiles + [ContentPath.profileFile(handle, format: "yml")] where try FolderEntries.exists(path, in: site.path) {
                return path
            }
            return nil
        }
    }

    /// Writes a small valid profile with the other fields as commented examples, unless the
    /// user has a profile already (never a second one beside it); what was done, to print, and
    /// whether a file was written. `name` passed `DisplayName.checked`.
    func writeStarterProfile(name: String) throws(Diagnostic) -> (message: String, wrote: Bool) {
        if let existing = try existingProfile {
            guard existing.hasSuffix(".yml") else { return ("kept \(existing): \(handle) has a profile already", false) }
            return ("wrote no profile: \(existing) is \(handle)'s, but tomo reads only .yaml and .json profiles: rename it to \(profileYAML)", false)
        }
        let text = SchemaFiles.modeline(ContentSchema.profile, for: profileYAML) + "\n" + """
        name: \(YAMLScalar.doubleQuoted(name))
        # Everything below is optional: remove the leading "# " to use a line.
        # bio: |
        #   A few words in **Markdown**.
        # icon: \(handle)/icon.jpg        # relative to content/users/
        # header: \(handle)/header.jpg
        # links:
        #   website: https://example.com
        #   instagram: https://www.instagram.com/\(handle)/
        # items:
        #   - text: Hello, I shoot film.
        #   - text: Portfolio
        #     url: https://example.com/portfolio
        #     color: orange

        """
        do {
            try FileManager.default.createDirectory(at: url(ContentPath.usersFolder), withIntermediateDirectories: true)
            // Whole or not at all: a profile half written (a full disk, a `kill -9`) would be
            // kept by every `user add` after it.
            try RegularFile.createWhole(url(profileYAML).path) { try Data(text.utf8).write(to: $0) }
        } catch {
            throw Diagnostic("cannot write \(profileYAML): \(Diagnostic.reason(of: error))")
        }
        // The modeline points at the site's copy of the schema: make sure there is one.
        _ = try SchemaFiles.writeIfMissing(ContentSchema.profile, site: site)
        return ("wrote \(profileYAML)", true)
    }

    /// Refuses, before the store changes, a `user add` that could not leave the user with a
    /// profile: something other than a file at a profile's name (a folder), a profile that
    /// `--name` (`name`) cannot be read or edited in, or a folder no profile, or the schema its
    /// modeline names, can be written into. Registered first and failing then, the command
    /// would stop half done, the user in the store without a profile.
    func checkProfileCanBeWritten(name: String?) throws {
        for path in profileFiles + [ContentPath.profileFile(handle, format: "yml")] {
            // A link to nothing "does not exist", but no profile can be written in its place.
            if let target = FolderEntries.danglingLinkTarget(url(path).path) {
                throw Diagnostic(
                    "this is a symbolic link to \(target), which does not exist, where \(handle)'s profile belongs: remove the link (or put the profile where it leads), then run `tomo user add \(handle)` again",
                    at: SourceLocation(file: path, line: 1, column: 1)
                )
            }
            guard try FolderEntries.exists(path, in: site.path) else { continue }
            if case .notRegular(let kind)? = RegularFile.check(url(path).path) {
                throw Diagnostic(
                    "this is \(kind), where \(handle)'s profile belongs: move it away, then run `tomo user add \(handle)` again",
                    at: SourceLocation(file: path, line: 1, column: 1)
                )
            }
        }
        if try existingProfile != nil {
            // The profile is kept; only --name edits it, in place, through a new file beside it.
            guard let name, var profile = try ProfileFile.read(site: site, handle: handle), profile.name != name else { return }
            try profile.set("name", to: name)
            try checkCanWrite(into: ContentPath.usersFolder, toWrite: profile.file)
            return
        }
        try checkCanWrite(into: ContentPath.usersFolder, toWrite: profileYAML)
        let schema = SchemaFiles.folder + "/" + ContentSchema.profile.fileName
        if !FileManager.default.fileExists(atPath: url(schema).path) {
            try checkCanWrite(into: SchemaFiles.folder, toWrite: schema)
        }
    }

    /// Throws when `file` cannot be made in the site's `folder` (made first when missing): the
    /// nearest of its folders that exists must be a folder this process may write in.
    private func checkCanWrite(into folder: String, toWrite file: String) throws(Diagnostic) {
        var candidate = folder
        while true {
            let path = candidate.isEmpty ? site.path : url(candidate).path
            var status = stat()
            if stat(path, &status) == 0 {
                guard status.isFolder else { throw FolderFailure(.notAFolder).diagnostic(folder: candidate) }
                guard access(path, W_OK | X_OK) == 0 else {
                    let shown = candidate.isEmpty ? "." : candidate
                    throw Diagnostic(
                        "cannot write \(file) in this folder (\(String(cString: strerror(errno)))): make it writable (chmod u+wx \(shown)), then run `tomo user add \(handle)` again",
                        at: SourceLocation(file: shown + "/", line: 1, column: 1)
                    )
                }
                return
            }
            guard let slash = candidate.lastIndex(of: "/") else {
                if candidate.isEmpty { return }
                candidate = ""
                continue
            }
            candidate = String(candidate[..<slash])
        }
    }

    /// Makes `name` the display name in the profile (a starter profile when there is none);
    /// what was done and whether a file changed, or nil when the profile already says it.
    func setName(_ name: String) throws -> (message: String, wrote: Bool)? {
        guard var profile = try ProfileFile.read(site: site, handle: handle) else {
            return try writeStarterProfile(name: name)
        }
        if profile.name == name { return nil }
        try profile.set("name", to: name)
        try save(profile)
        return ("set the name in \(profile.file) to \(DisplayName.shown(name))", true)
    }

    /// Writes a changed profile in place, whole or not at all.
    private func save(_ profile: ProfileFile) throws(Diagnostic) {
        do { try RegularFile.replaceWhole(url(profile.file).path) { try Data(profile.bytes).write(to: $0) } } catch {
            throw Diagnostic("cannot update \(profile.file): \(Diagnostic.reason(of: error))")
        }
    }

    /// Refuses, before the store changes, when a folder among the user's files cannot be read:
    /// deleting would stop half way, after the store forgot the user, and a rename would move
    /// posts that no build can read under the new handle.
    func checkReadable() throws(DiagnosticList) {
        var problems: [Diagnostic] = []
        do {
            for path in try existing {
                var status = stat()
                // A file or a link is deleted as it is; only a folder is emptied first.
                guard lstat(url(path).path, &status) == 0, status.isFolder else { continue }
                problems += FolderEntries.files(under: url(path).path, display: path, followingLinks: false, includingHidden: true).problems
            }
        } catch {
            problems.append(error)
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
    }

    /// Deletes every file of the user; the paths removed. A hidden profile a killed `user add`
    /// or `user set` left half written (`.bob.yaml.partial`) goes too: it holds the handle.
    func removeAll() throws(Diagnostic) -> [String] {
        let paths = try existing
        for path in paths {
            do { try FileManager.default.removeItem(at: url(path)) } catch {
                throw Diagnostic("cannot remove \(path): \(Diagnostic.reason(of: error)): make it removable, then run `tomo user rm \(handle) --yes` again to finish")
            }
        }
        for path in profileFiles + [ContentPath.profileFile(handle, format: "yml")] {
            unlink(url(RegularFile.partialPath(of: path)).path)
        }
        return paths
    }

    /// The user's files that would be overwritten by renaming someone to this handle.
    var conflicts: [String] {
        get throws(Diagnostic) { try existing }
    }

    /// Moves every file to `other`'s places, and points the profile's image paths (`icon:`,
    /// `header:`, the links' and items' `icon:`) at the renamed images folder (checked
    /// beforehand by `checkRename`). The store is renamed
    /// first, and the files follow in an order that a kill at any moment leaves to be finished
    /// by the same `tomo user rename` (see `leftBehind`): the folders, then the profile, pointed
    /// at the moved folder before it moves itself. Until the profile has moved, `tomo check`
    /// sees a registered user without a profile and a profile without a registration. Each step
    /// is one rename (or one whole-file replace) and is skipped once done.
    func move(to other: UserContentFiles) throws -> [String] {
        var moved: [String] = []
        for (from, to) in [(imagesFolder, other.imagesFolder), (postsFolder, other.postsFolder)] where try FolderEntries.exists(from, in: site.path) {
            try rename(from, to: to)
            moved.append("\(from) -> \(to)")
        }
        // A profile already moved by an older tomo (which moved it first) is pointed in its new place.
        let owner = try hasProfile ? self : other
        if var profile = try ProfileFile.read(site: site, handle: owner.handle), try profile.repointImages(from: handle, to: other.handle) {
            try owner.save(profile)
        }
        for (from, to) in zip(profileFiles, other.profileFiles) where try FolderEntries.exists(from, in: site.path) {
            try rename(from, to: to)
            moved.append("\(from) -> \(to)")
        }
        return moved
    }

    /// Whether this (old) handle's files are what an interrupted `tomo user rename` to `other`
    /// left: some of them still in place, or `other`'s profile still pointing into this folder.
    func leftBehind(renamingTo other: UserContentFiles) throws -> Bool {
        if try !existing.isEmpty { return true }
        guard var profile = try ProfileFile.read(site: site, handle: other.handle) else { return false }
        return try profile.repointImages(from: handle, to: other.handle)
    }

    /// Refuses a rename whose files cannot all be found or whose profile could not be
    /// rewritten, before anything changes. When finishing an interrupted rename, also one whose
    /// file of some kind exists at both places: no rename leaves that, so it is for a person to sort out.
    func checkRename(to other: UserContentFiles, finishing: Bool) throws {
        try checkReadable()
        if finishing {
            let pairs = [(imagesFolder, other.imagesFolder), (postsFolder, other.postsFolder)]
            for (from, to) in pairs where try FolderEntries.exists(from, in: site.path) && FolderEntries.exists(to, in: site.path) {
                throw Diagnostic("both \(from) and \(to) exist: move one of them away by hand, then run `tomo user rename \(handle) \(other.handle)` again")
            }
            if try hasProfile && other.hasProfile {
                throw Diagnostic("both \(handle) and \(other.handle) have a profile in content/users: remove one by hand, then run `tomo user rename \(handle) \(other.handle)` again")
            }
        }
        let owner = try hasProfile ? self : other
        if var profile = try ProfileFile.read(site: site, handle: owner.handle) { _ = try profile.repointImages(from: handle, to: other.handle) }
    }

    /// Renames the site's `from` to `to`, in one step; refused when `to` exists.
    private func rename(_ from: String, to: String) throws(Diagnostic) {
        var status = stat()
        guard lstat(url(to).path, &status) != 0, errno == ENOENT else {
            throw Diagnostic("cannot move \(from) to \(to): \(to) already exists")
        }
        guard Glibc.rename(url(from).path, url(to).path) == 0 else {
            throw Diagnostic("cannot move \(from) to \(to): \(String(cString: strerror(errno)))")
        }
    }
}

/// A display name given on the command line (`user add|set --name`): trimmed, and held to the
/// content loader's own rule for a profile's `name`, so no command writes a profile that
/// `tomo check` rejects.
enum DisplayName {
    static func checked(_ text: String, handle: String, site: URL, usage: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        // Told in the command line's words, not as a profile's missing `name:` line.
        if name.isBlank {
            throw UsageError("--name \(shown(name)) shows as nothing (white space or characters invisible on their own): give a display name", usage: usage)
        }
        // The profile as it is: its private address may not be shown by the name either.
        let privateEmail = (try? ProfileFile.read(site: site, handle: handle))??.privateEmail
        if let problem = ProfileFile.nameProblem(name, handle: handle, site: site, privateEmail: privateEmail) {
            throw UsageError("--name \(shown(name)) cannot be a display name: \(problem)", usage: usage)
        }
        return name
    }

    /// The name in quotes, for messages. It holds no control character: the command line
    /// refuses those before any command runs.
    static func shown(_ name: String) -> String {
        "\"" + name + "\""
    }
}

/// Display names for listings, read from the profiles (the store keeps none).
enum ProfileNames {
    /// The profile's `name`; nil without a profile, or with one that cannot be read.
    static func name(of handle: String, in site: URL) -> String? {
        (try? ProfileFile.read(site: site, handle: handle))??.name
    }

    static func shown(_ name: String?, on console: Console) -> ConsoleText {
        name.map { "\($0)" } ?? console.paint("(no profile name: see `tomo check`)", .dim)
    }
}
