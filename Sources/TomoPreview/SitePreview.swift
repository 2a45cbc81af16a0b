import CSystem
import Foundation
import Synchronization
import TomoContent
import TomoCore
import TomoServer
import TomoSite

/// `tomo serve`: builds the site, serves it, watches `content/` and `templates/`, and after each
/// save rebuilds only what changed and tells open pages to reload. A failed rebuild keeps
/// serving the last good site and shows the error over every open page until the next good
/// rebuild.
///
/// The served bytes are kept on disk, in `.tomo-cache/serve/<setting>/` (`keptFilesFolder`),
/// not in memory; at start the files the last preview with the same setting served are served
/// at once while the first build runs.
public final class SitePreview: Sendable {
    public struct Options: Sendable {
        public var site: URL
        public var host = "127.0.0.1"
        public var port: UInt16 = 8080
        /// The site's address in its pages (`--base-url`), checked as `tomo build` checks it;
        /// the site is served under its path. Nil: the preview's own address.
        public var baseURL: String?
        public var liveReload = true
        /// Shows posts and pages with `draft: true` (`--drafts`).
        public var drafts = false
        /// Shows posts dated later than now (`--future`); otherwise each shows at its date.
        public var future = false
        /// How long the watcher waits for more changes before rebuilding while a file written
        /// to is still open (10 ms once all are closed: `FileWatcher`).
        public var debounce: Duration = .milliseconds(30)

        public init(site: URL) {
            self.site = site
        }
    }

    /// Whether listening on `host` lets other machines connect: any address but a loopback one
    /// (127.0.0.0/8, ::1, `localhost`), 0.0.0.0 and `::` included. False for a host that is no address, which
    /// `start` refuses.
    public static func isReachableFromNetwork(host: String) -> Bool {
        (try? ListenAddress(host))?.isLoopback == false
    }

    /// Why the preview cannot listen on `host` (it is neither an IP address nor `localhost`),
    /// or nil: for the command line to refuse it as it refuses a bad port.
    public static func hostProblem(_ host: String) -> String? {
        do {
            _ = try ListenAddress(host)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// What the preview tells the person running it.
    public enum Event: Sendable {
        /// A remark such as "port 8080 is taken, trying 8081".
        case note(String)
        /// The last preview's `files` are served at `url` while the first build runs.
        case servingKept(files: Int, url: String)
        case built(files: Int, seconds: Double, warnings: [Diagnostic])
        /// A rebuild after `after`: a script that saved a file can wait for the line naming it.
        case rebuilt(changed: Int, made: Int, milliseconds: Double, stylesheetsOnly: Bool, after: Trigger)
        /// The first build (`after` is nil) or a rebuild after `after` failed. `new`
        /// holds its problems that the failure before it did not have, in report order, each
        /// once (a store error that stays is told once, not at every rebuild); `errorsShownBefore`
        /// counts the errors that stay. `servesGoodSite` is false until a build succeeded (only
        /// the error page is served).
        case failed(new: [Diagnostic], errorsShownBefore: Int, after: Trigger?, servesGoodSite: Bool)
    }

    /// What a rebuild reacted to.
    public enum Trigger: Sendable, Equatable {
        /// Site files that were saved, made, moved or deleted (`namedPaths` of the watcher's
        /// batch, sorted).
        case files([String])
        /// No file: the moment an item's `from` or `until`, or a post's date, passed.
        case moment(Date)
        /// The files served were deleted from `folder` (below the site; `.tomo-cache/` deleted
        /// while the preview ran): every file is made and stored again.
        case lostFiles(folder: String)
    }

    /// Where to open the site (`http://127.0.0.1:8080/`, under the base URL's path).
    public let url: String
    /// The address the pages give as theirs (canonical links, feeds, Open Graph): `--base-url`,
    /// or `url`.
    public let baseURL: String
    private let server: PreviewServer
    private let state: PreviewState
    private let watcher = WatcherSlot()

    /// Starts serving and watching; the first build happens before this returns.
    public static func start(_ options: Options, onEvent: @escaping @Sendable (Event) -> Void) throws -> SitePreview {
        var configuration = PreviewServer.Configuration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.liveReload = options.liveReload
        // The base URL as pages give it (in ASCII); they link under its path, so that is where
        // they are served.
        let address = try options.baseURL.map { text throws(Diagnostic) in try SiteAddress(text) }
        if let address { configuration.root = address.root }
        // The served files are kept in the cache folder, made before the first build.
        if let problem = CacheFolder.problem(site: options.site) { throw problem }
        configuration.keptFiles = keptFilesFolder(options)
        let server = try PreviewServer.start(configuration) { onEvent(.note($0)) }
        if !server.keepsFiles, let folder = configuration.keptFiles {
            onEvent(.note("another tomo serve uses \(folder.path); this one keeps its files in a temporary folder until it stops"))
        }
        if server.keptFileCount > 0 { onEvent(.servingKept(files: server.keptFileCount, url: server.url)) }
        // Absolute links (Open Graph, canonical) point at the preview, as pages are seen there,
        // unless a base URL is given.
        let baseURL = address?.baseURL ?? server.url
        let liveReload = options.liveReload
        // Each page is stored and made ready to serve on the thread that renders it (see
        // `ServedFile`): the session keeps no bytes. After the first build, a rebuild's pages
        // are written to disk after they went live.
        let firstBuild = FirstBuild()
        let session = SiteSession(options: BuildOptions(site: options.site, baseURL: baseURL, drafts: options.drafts, future: options.future)) { path, bytes in
            server.servedFile(path: path, bytes: liveReload ? ServedSite.withReloadScript(bytes, at: path) : bytes,
                              writtenLater: firstBuild.isDone)
        }
        let state = PreviewState(session: session, server: server, liveReload: options.liveReload,
                                 servesKeptSite: server.keptFileCount > 0, onEvent: onEvent)
        let preview = SitePreview(url: server.url, baseURL: baseURL, server: server, state: state)
        // The session keeps digests, not bytes: lost files are made again (a whole rebuild).
        let storeFolder = Self.shown(server.filesFolder, in: options.site.standardizedFileURL)
        server.whenFilesAreLost { [weak state] in state?.storeLostFilesAgain(folder: storeFolder + "/") }

        // Watching starts before the first build: a save made while it runs is rebuilt after
        // it (the rebuild waits for the build), never lost between the two.
        let site = options.site.standardizedFileURL
        // Both, whether or not they exist now: a templates/ folder made later is seen.
        let folders = ["content", "templates", ContentPath.rootStaticFolder].map { site.appendingPathComponent($0) }
        try state.buildAll {
            // Links are followed as the build follows them: only inside the site.
            let watcher = try FileWatcher(folders: folders, debounce: options.debounce, links: SiteLinks(site: site.path), onUnwatched: { folder, problem in
                guard let path = Self.sitePath(of: folder, in: site) else { return }
                onEvent(.note("\(path)/: \(problem)"))
            }) { urls in
                let paths = urls.compactMap { Self.sitePath(of: $0, in: site) }
                state.rebuild(changed: paths, named: Self.namedPaths(paths, in: site))
            }
            preview.watcher.set(watcher)
        }
        firstBuild.isDone = true
        return preview
    }

    private init(url: String, baseURL: String, server: PreviewServer, state: PreviewState) {
        self.url = url
        self.baseURL = baseURL
        self.server = server
        self.state = state
    }

    /// Where a preview with these options keeps its served files: one folder per setting that
    /// changes the bytes (base URL, live reload, drafts, future), so a restart with the same
    /// setting finds what it served last.
    static func keptFilesFolder(_ options: Options) -> URL {
        var hasher = StableHasher()
        hasher.add(options.baseURL)
        hasher.add(options.liveReload ? "reload" : "no-reload")
        hasher.add(options.drafts ? "drafts" : "no-drafts")
        hasher.add(options.future ? "future" : "no-future")
        let digits = String(hasher.value, radix: 16)
        return options.site.appendingPathComponent(".tomo-cache/serve/" + String(repeating: "0", count: 16 - digits.count) + digits)
    }

    /// Serves until Ctrl-C (or SIGTERM), then stops cleanly.
    public func runUntilInterrupted() {
        StopSignal.catching()
        _ = StopSignal.wait()
        stop()
    }

    /// Stops watching and serving.
    public func stop() {
        watcher.take()?.stop()
        state.stop()
        server.stop()
    }

    /// `folder` as a message names it: below the site (`.tomo-cache/serve/…`) when it is there.
    static func shown(_ folder: URL, in site: URL) -> String {
        let path = folder.standardizedFileURL.path
        return path.hasPrefix(site.path + "/") ? String(path.dropFirst(site.path.count + 1)) : path
    }

    /// `content/users/alice.yaml` for a changed file, or nil for files that are not the site's
    /// (hidden files, editor backups and swap files, the store's lock), except in the root
    /// static folder, which publishes every file it holds.
    static func sitePath(of url: URL, in site: URL) -> String? {
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(site.path + "/") else { return nil }
        let relative = String(path.dropFirst(site.path.count + 1))
        let name = url.lastPathComponent
        if ContentPath.isInRootStatic(relative) { return relative }
        if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return nil }
        if name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name == "4913" { return nil }
        return relative
    }
}

extension SitePreview {
    /// Which of a batch's changed `paths` a rebuild line names: the files there now (saved or
    /// made) and the files gone that have an extension (deleted, renamed away), as the content
    /// has them. Left out while any of those is there: folders (`content/posts/alice`, made
    /// for the post in it) and names without an extension that are gone (`sedWP2yEz`, the
    /// temporary file `sed -i` or an editor renames over the file it saves); they are named
    /// only when the batch holds nothing else.
    static func namedPaths(_ paths: [String], in site: URL) -> [String] {
        let named = paths.filter { path in
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: site.appendingPathComponent(path).path, isDirectory: &isFolder) {
                return !isFolder.boolValue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return !ContentPath.fileExtension(of: name).isEmpty
        }
        return named.isEmpty ? paths : named
    }
}

/// The preview's moving parts: the first build runs on the starting thread, every rebuild on
/// the watcher's or, when an item's `from` or `until` moment or a post's date passes, the alarm's; one at a time
/// (`building`), each at the time it runs, as `tomo build` run then would.
private final class PreviewState: @unchecked Sendable {
    private let building = NSLock()
    let session: SiteSession<ServedFile>
    let server: PreviewServer
    let liveReload: Bool
    let onEvent: @Sendable (SitePreview.Event) -> Void
    /// Whether the server holds a site that built (rather than the error page): at start, the
    /// files the last preview kept, if any, until the first build ends (one that fails takes
    /// them down).
    var servesGoodSite: Bool
    /// Whether the first build replaces what the last preview kept (pages opened from it then
    /// reload when it changed).
    private let servesKeptSite: Bool
    var showsError = false
    /// The problems of the last failed build while the site still fails, told already.
    private var toldProblems: Set<Diagnostic> = []
    /// Rings at the next moment an item appears or disappears or a post is published.
    private var alarm: MomentAlarm?
    /// Whether a file the last build made could not be stored (a full disk): it answers 404,
    /// and the session, which made it, would not make it again unless what it reads changes.
    /// The next rebuild makes and stores every file.
    private var leftFilesUnstored = false

    init(session: SiteSession<ServedFile>, server: PreviewServer, liveReload: Bool, servesKeptSite: Bool,
         onEvent: @escaping @Sendable (SitePreview.Event) -> Void) {
        self.session = session
        self.servesKeptSite = servesKeptSite
        servesGoodSite = servesKeptSite
        self.server = server
        self.liveReload = liveReload
        self.onEvent = onEvent
        alarm = MomentAlarm { [weak self] moment in self?.rebuildAtThisMoment(moment) }
    }

    func stop() {
        alarm?.stop()
    }

    /// The first build, after `start` (which starts the watcher): no rebuild runs before it ends.
    func buildAll(after start: () throws -> Void) rethrows {
        building.lock()
        defer { building.unlock() }
        try start()
        do {
            let update = try session.buildAll(buildDate: Date())
            alarm?.set(session.nextChange)
            noteUnstoredFiles(update)
            let changes = publishWhole(update)
            if servesKeptSite, let reload = changes.reloadKind { server.notifyReload(reload) }
            onEvent(.built(files: update.fileCount, seconds: update.seconds, warnings: update.warnings))
        } catch {
            // The last preview's files are not served on: they may show what has since been
            // made private or deleted, which no build of the site as it is would publish.
            servesGoodSite = false
            fail(error, after: nil)
        }
        session.indexReaders()
        // What the build needed (views, rendered bytes before they were stored) is free now: give
        // that memory back to the system (the allocator keeps freed pages for reuse otherwise).
        tomo_release_free_memory()
    }

    /// Rebuilds after the site files `paths` changed; the line says `named` (`namedPaths`).
    func rebuild(changed paths: [String], named: [String]) {
        guard !paths.isEmpty else { return }
        rebuild(paths, after: .files(named))
    }

    /// An item's `from` or `until` moment passed (its profile page shows the item or drops it),
    /// or a post's date (it is published).
    private func rebuildAtThisMoment(_ moment: Date) {
        rebuild([], after: .moment(moment))
    }

    /// The served files were deleted from the disk: every file is made, stored and published
    /// again, also while the last rebuild failed: its error may have been the cache's going (a
    /// share card deleted as it was read), which no save would fix. While the site does not
    /// build, the next good rebuild does that.
    func storeLostFilesAgain(folder: String) {
        building.lock()
        defer { building.unlock() }
        session.forgetOutputs()
        server.holdingDeletions { rebuildAndPublish([], after: .lostFiles(folder: folder)) }
        if showsError {
            onEvent(.note("the served files in \(folder) were deleted; pages answer 503 until a save fixes the site, which stores them again"))
        }
    }

    private func rebuild(_ paths: [String], after trigger: SitePreview.Trigger) {
        building.lock()
        defer { building.unlock() }
        server.holdingDeletions { rebuildAndPublish(paths, after: trigger) }
    }

    private func rebuildAndPublish(_ paths: [String], after trigger: SitePreview.Trigger) {
        if leftFilesUnstored { session.forgetOutputs() }
        do {
            let update = try session.rebuild(changedPaths: paths, buildDate: Date())
            alarm?.set(session.nextChange)
            noteUnstoredFiles(update)
            // Only what changed goes to the server: a small edit costs the same on any site.
            let changes = update.isWhole ? publishWhole(update) : server.publish(changed: update.files, removed: update.removed)
            if showsError {
                showsError = false
                toldProblems = []
                server.showError(nil)
            }
            let reload = changes.reloadKind
            if let reload { server.notifyReload(reload) }
            onEvent(.rebuilt(changed: changes.paths.count, made: update.made,
                             milliseconds: update.seconds * 1000, stylesheetsOnly: reload == .css, after: trigger))
            // After the reload went out: a rebuild that changed the plan indexes the new one.
            session.indexReaders()
        } catch {
            fail(error, after: trigger)
        }
    }

    private func noteUnstoredFiles(_ update: SiteSession<ServedFile>.Update) {
        leftFilesUnstored = update.files.values.contains { !$0.isStored }
    }

    @discardableResult
    private func publishWhole(_ update: SiteSession<ServedFile>.Update) -> SiteChanges {
        servesGoodSite = true
        return server.publish(whole: update.files)
    }

    /// Pages as served: with the live-reload script, unless it is turned off.
    private func served(_ site: ServedSite) -> ServedSite {
        liveReload ? site.withReloadScript() : site
    }

    /// Keeps the last good site; the error goes over every open page and to the terminal.
    private func fail(_ error: DiagnosticList, after trigger: SitePreview.Trigger?) {
        let problems = error.inReportOrder
        let new = problems.filter { !toldProblems.contains($0) }
        let errorsShownBefore = problems.count { $0.severity == .error && toldProblems.contains($0) }
        toldProblems = Set(problems)
        showsError = true
        server.showError(problems.map(\.description).joined(separator: "\n"))
        if !servesGoodSite {
            // Nothing good to show yet: every address answers with this page until it is fixed.
            // Never recorded as the kept site: the next start must not serve it as the last
            // preview's.
            let bytes = BuildErrorPage.bytes(listing: problems, liveReload: liveReload)
            let changes = server.publish(served(ServedSite(files: ["index.html": bytes, "404.html": bytes])), keptForNextStart: false)
            // An open error page shows the problems as they are now.
            if changes.reloadKind != nil { server.notifyReload(.page) }
        }
        onEvent(.failed(new: new, errorsShownBefore: errorsShownBefore, after: trigger, servesGoodSite: servesGoodSite))
    }
}

/// Whether the preview's first build is done: the pages of every later build are written to
/// disk after they went live (`PreviewServer.servedFile(path:bytes:writtenLater:)`).
private final class FirstBuild: Sendable {
    private let done = Atomic<Bool>(false)

    var isDone: Bool {
        get { done.load(ordering: .acquiring) }
        set { done.store(newValue, ordering: .releasing) }
    }
}

/// The preview's file watcher, set once after start and taken once by stop. (A lock and a
/// plain optional: a `Mutex<FileWatcher?>` stored property here corrupted the heap in release
/// builds of this toolchain.)
private final class WatcherSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var watcher: FileWatcher?

    func set(_ watcher: FileWatcher) {
        lock.lock()
        self.watcher = watcher
        lock.unlock()
    }

    func take() -> FileWatcher? {
        lock.lock()
        defer { lock.unlock() }
        let taken = watcher
        watcher = nil
        return taken
    }
}
