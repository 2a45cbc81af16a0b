import Foundation
import TomoContent
import TomoCore

/// The stamps of every file a build reads: everything under `content/`, `templates/` and the
/// root static folder `static/`, by path relative to the site folder (hidden files left out, as
/// the content loader leaves them, except in `static/`, which publishes them).
/// Taken with `readdir` and `fstatat` on both cores, so a rebuild can tell in a fraction of a
/// second that nothing changed.
struct InputStamps: Sendable {
    var byPath: [String: FileStamp] = [:]
    /// The folders walked (relative to the site folder): `restamp` looks for the stamps below a
    /// path only when it was one of them, instead of going through every stamp.
    private(set) var walkedFolders: Set<String> = []
    /// The entries of each folder under `content/` the walk read, in the order read, for
    /// `listings`. A folder holding a symbolic link (or one a walk through a link led back to)
    /// is left out, for the loader to list under the site's rule for links.
    private var listed: [String: [FolderListings.Entry]] = [:]
    /// Whether `restamp` changed any stamp: `listings` are then no longer what a walk saw.
    private var restamped = false

    static let folders = ["content", "templates", ContentPath.rootStaticFolder]

    /// The stamps of the site, put together.
    static func scan(site: URL) -> InputStamps {
        take(site: site).merged()
    }

    /// What a scan found, in the parts it was taken in, with their digest: a build that finds
    /// the digest unchanged stops without making a path or a table of the 220,000 stamps at
    /// 10,000 users.
    struct Scan: Sendable {
        fileprivate var parts: [Walk]
        /// `Walk.digest` of all the parts, summed on the cores that took them.
        let digest: UInt64

        func merged() -> InputStamps {
            // The table of stamps (a path made for each of 110,000 files at 10,000 users) on
            // this core, the folders and their listings on another.
            let parts = parts
            let ((walked, listed), byPath) = concurrently({
                var walked: Set<String> = []
                var listed: [String: [FolderListings.Entry]] = [:]
                for part in parts { InputStamps.addFolders(of: part, walked: &walked, listed: &listed) }
                return (walked, listed)
            }, {
                var byPath: [String: FileStamp] = [:]
                byPath.reserveCapacity(parts.reduce(0) { $0 + $1.entryCount })
                for part in parts { InputStamps.addStamps(of: part, to: &byPath) }
                return byPath
            })
            var stamps = InputStamps()
            stamps.byPath = byPath
            stamps.walkedFolders = walked
            stamps.listed = listed
            return stamps
        }
    }

    /// Takes the stamps with `readdir` and `fstatat`: the first level of each folder here, then
    /// content/posts and content/users (a folder or file per user) one on each core, then their
    /// subfolders on every core.
    static func take(site: URL) -> Scan {
        let root = site.path
        var jobs: [String] = []
        var top = Walk()
        for folder in folders {
            top.collect(folder: folder, root: root, recursive: false, subfolders: &jobs)
        }
        /// `folder` walked, with its digest made on the same core, and its subfolders when it
        /// is not walked to the bottom.
        @Sendable func walk(_ folder: String, recursive: Bool) -> (part: Walk, digest: UInt64, subfolders: [String]) {
            var part = Walk()
            var subfolders: [String] = []
            part.collect(folder: folder, root: root, recursive: recursive, subfolders: &subfolders)
            return (part, part.digest, subfolders)
        }
        let wide: Set<String> = [ContentPath.postsFolder, ContentPath.usersFolder]
        // 20,000 entries at 10,000 users: listed one after the other, they kept a core idle.
        let widened = jobs.filter(wide.contains).concurrentMap { walk($0, recursive: false) }
        let expanded = jobs.filter { !wide.contains($0) } + widened.flatMap(\.subfolders)
        let parts = widened + expanded.concurrentMap { walk($0, recursive: true) }
        // Each path is in one part only (each part is a folder of its own), so the digests add up.
        let digest = parts.reduce(top.digest) { $0 &+ $1.digest }
        return Scan(parts: [top] + parts.map(\.part), digest: digest)
    }

    /// Adds what `walk` found: a stamp for each file by its path, each folder walked, and the
    /// folders' listings.
    private mutating func add(_ walk: Walk) {
        Self.addStamps(of: walk, to: &byPath)
        Self.addFolders(of: walk, walked: &walkedFolders, listed: &listed)
    }

    /// Each file's stamp by its path, and each unreadable folder's.
    private static func addStamps(of walk: Walk, to byPath: inout [String: FileStamp]) {
        for folder in walk.folders {
            let prefix = folder.path + "/"
            for entry in folder.entries {
                if let stamp = entry.stamp { byPath[prefix + entry.name] = stamp }
            }
        }
        for (path, stamp) in walk.unreadable { byPath[path] = stamp }
    }

    /// The folders walked, and the entries of those the loader may take as they were read.
    private static func addFolders(of walk: Walk, walked: inout Set<String>, listed: inout [String: [FolderListings.Entry]]) {
        for folder in walk.folders {
            walked.insert(folder.path)
            if folder.isListed {
                listed[folder.path] = folder.entries.map { FolderListings.Entry(name: $0.name, isFolder: $0.stamp == nil) }
            }
        }
    }

    /// The names in each folder under `content/` that the walk read and found no link in, for
    /// loading the site (`tomo build`) without listing the folders again. None after `restamp`.
    /// Sorted only here, on every core: a build that finds nothing changed never asks.
    var listings: FolderListings {
        guard !restamped else { return FolderListings() }
        let sorted = Array(listed).concurrentRuns(perCore: 2) { run in
            run.map { folder, entries in (folder, entries.sorted { $0.name < $1.name }) }
        }
        return FolderListings(sorted: Dictionary(uniqueKeysWithValues: sorted.joined()))
    }

    /// What one walk found, folder by folder, each entry by the name `readdir` gave: no path is
    /// made until the stamps are put together (`add`).
    fileprivate struct Walk: Sendable {
        struct Folder: Sendable {
            /// Relative to the site folder.
            var path: String
            /// Each entry's name and stamp, in the order read; a folder has no stamp.
            var entries: [(name: String, stamp: FileStamp?)]
            /// How many names in it the listing refused (not UTF-8, or one text in two Unicode
            /// forms; left out of `entries`): part of the digest, so that one appearing or going
            /// is a change, which the loader reports.
            var namesRefused: Int
            /// Whether the folder is under `content/` and holds no link, so loading the site
            /// may take its entries instead of listing it again.
            var isListed: Bool
        }

        var folders: [Folder] = []
        /// The stamp of each folder that cannot be read, by its path and a slash (`folder/`).
        var unreadable: [(path: String, stamp: FileStamp)] = []

        /// How many entries (files and folders) and unreadable folders the walk found.
        var entryCount: Int {
            folders.reduce(unreadable.count) { count, folder in count + folder.entries.count }
        }

        /// One number for every file's path and stamp, and every folder's path, in any order: a
        /// rebuild compares this alone. A sum, so the parts of a scan can be summed apart; the
        /// hash of a folder's path is taken once for all its entries. Folders count too: an
        /// empty one made where a content file goes (`content/users/zed.yaml/`) is an error a
        /// build must report, as a full one does.
        var digest: UInt64 {
            var total: UInt64 = 0
            for folder in folders {
                var base = StableHasher()
                base.add(folder.path)
                if folder.namesRefused > 0 {
                    var hasher = base
                    hasher.add("\u{FFFD}")
                    hasher.add(UInt64(folder.namesRefused))
                    total &+= hasher.value
                }
                for entry in folder.entries {
                    var hasher = base
                    hasher.add(entry.name)
                    if let stamp = entry.stamp { hasher.add(stamp.digest) } else { hasher.add("/") }
                    // `&+ 1`: the number of stamps is part of the sum.
                    total &+= hasher.value &+ 1
                }
            }
            for (path, stamp) in unreadable {
                var hasher = StableHasher()
                hasher.add(path)
                hasher.add(stamp.digest)
                total &+= hasher.value &+ 1
            }
            return total
        }

        /// Stamps the files of `folder` (relative to `root`); its subfolders are walked too when
        /// `recursive`, otherwise appended to `subfolders`. A symbolic link that the site's rule
        /// follows (`SiteLinks`: it stays inside the site) is stamped as what it leads to, a
        /// folder walked under the link's name, so editing the target is a change; any other
        /// link is stamped as it is (loading the site reports it). A folder that cannot be read
        /// gets a stamp of its own (`folder/`), so that it never looks like an empty folder: the
        /// build goes on to load the site, which reports it.
        mutating func collect(folder top: String, root: String, recursive: Bool, subfolders: inout [String]) {
            let links = SiteLinks(site: root)
            // An explicit stack, each folder with the real folders (device and inode) it is
            // walked inside of, so that links leading round in a circle end.
            var pending: [(folder: String, within: Set<[UInt64]>)] = [(top, [])]
            while let (folder, within) = pending.popLast() {
                let entries: [FolderEntries.Entry]
                var namesRefused = 0
                do {
                    entries = try FolderEntries.read(root + "/" + folder, followingLinks: false, includingHidden: ContentPath.isInRootStatic(folder)) { _ in
                        namesRefused += 1
                    }
                } catch {
                    if error.reason != .missing { unreadable.append((folder + "/", InputStamps.unreadable(error))) }
                    continue
                }
                // A folder that could not be read is never walked, but its parent lists it as
                // the folder it is: the loader, finding it not kept, reports it.
                // Nor is a folder holding a name the listing refused listed from here: the loader
                // lists it again, and reports the names it refuses.
                var walked = Folder(
                    path: folder, entries: [], namesRefused: namesRefused,
                    isListed: ContentPath.isInContent(folder) && namesRefused == 0 && !entries.contains(where: { $0.status.isLink })
                )
                walked.entries.reserveCapacity(entries.count)
                for (name, entry) in entries {
                    // Only a link needs its path (220,000 entries at 10,000 users, few links).
                    let status = entry.isLink ? InputStamps.stamped(entry, of: folder + "/" + name, root: root, links: links) : entry
                    guard status.isFolder else {
                        walked.entries.append((name, FileStamp(status)))
                        continue
                    }
                    walked.entries.append((name, nil))
                    let path = folder + "/" + name
                    let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
                    if !recursive {
                        subfolders.append(path)
                    } else if !within.contains(identity) {
                        pending.append((path, within.union([identity])))
                    } else {
                        walked.isListed = false
                    }
                }
                folders.append(walked)
            }
        }
    }

    /// What the entry at `path` (its `lstat` status) is stamped by: a link the site's rule
    /// follows by what it leads to, anything else by itself.
    fileprivate static func stamped(_ entry: stat, of path: String, root: String, links: SiteLinks) -> stat {
        var target = stat()
        guard entry.isLink, links.problem(ofLink: path) == nil, stat(root + "/" + path, &target) == 0 else { return entry }
        return target
    }

    /// The stamp of a folder that cannot be listed: no file has a negative size.
    fileprivate static func unreadable(_ failure: FolderFailure) -> FileStamp {
        let code: Int32
        switch failure.reason {
        case .missing: code = ENOENT
        case .notAFolder: code = ENOTDIR
        case .unreadable(let errno): code = errno
        }
        return FileStamp(size: -1, inode: UInt64(code), modified: 0, changed: 0)
    }
}

extension InputStamps {
    /// The stamps taken again for `paths` only (files or folders, relative to the site folder),
    /// as `scan` would take them now: for `tomo serve`, which is told what changed.
    mutating func restamp(_ paths: Set<String>, site: URL) {
        let root = site.path
        restamped = true
        for path in paths.sorted() {
            let parts = path.split(separator: "/")
            guard let top = parts.first, Self.folders.contains(String(top)), parts.count > 1,
                  ContentPath.isInRootStatic(path) || !parts.contains(where: { $0.hasPrefix(".") }) else { continue }
            // A path that was a file had no entries below it; one that was a folder (walked, or
            // stamped as unreadable) loses every stamp below it.
            let wasFolder = walkedFolders.remove(path) != nil
            if byPath.removeValue(forKey: path) == nil, wasFolder || byPath.removeValue(forKey: path + "/") != nil {
                let below = path + "/"
                byPath = byPath.filter { !$0.key.hasPrefix(below) }
                walkedFolders = walkedFolders.filter { !$0.hasPrefix(below) }
            }
            var entry = stat()
            guard lstat(root + "/" + path, &entry) == 0 else { continue }
            let status = Self.stamped(entry, of: path, root: root, links: SiteLinks(site: root))
            if status.isFolder {
                var walk = Walk()
                var ignored: [String] = []
                walk.collect(folder: path, root: root, recursive: true, subfolders: &ignored)
                add(walk)
            } else {
                byPath[path] = FileStamp(status)
            }
        }
    }
}
