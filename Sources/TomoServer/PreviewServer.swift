import CMicrohttpd
import CMicrohttpdShim
import Foundation
import Synchronization
import TomoCore

/// The `tomo serve` HTTP server: serves a site snapshot on a loopback address and pushes
/// live-reload events to open pages. Knows nothing of how the site is built. The bytes of the
/// served files are kept on disk (`BlobStore`), and sent from there.
///
/// ```swift
/// let server = try PreviewServer.start(site: site, onNote: { print($0) })
/// print("Serving at \(server.url)")
/// server.publish(rebuiltSite); server.notifyReload(.page)
/// server.stop()
/// ```
public final class PreviewServer: Sendable {
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 address (`localhost` means 127.0.0.1). Requests must name this
        /// server in their `Host` header (see `AllowedHosts`).
        public var host = "127.0.0.1"
        /// The path the site is served under, ending in `/` (`/mysite/` for a site hosted under
        /// a folder), percent-escaped as in a URL: a request outside it gets the 404 page, and
        /// `/` is redirected to it.
        public var root = "/"
        /// The first port to try; 0 lets the system pick a free one.
        public var port: UInt16 = 8080
        /// How many ports, from `port` on, to try while they are taken.
        public var portAttempts = 20
        /// Serve `/_tomo/events` and `/_tomo/reload.js`.
        public var liveReload = true
        /// How often an idle event stream gets a comment line.
        public var heartbeatInterval: Duration = .seconds(15)
        /// Seconds after which an idle keep-alive connection is closed.
        public var idleTimeoutSeconds: UInt32 = 60
        /// The folder the served files are kept in, from one start to the next: at start the
        /// snapshot last published there is served (`keptFileCount`). Nil, or a folder another
        /// server uses: a temporary folder, removed at stop.
        public var keptFiles: URL?

        public init() {}
    }

    /// The address and port the server listens on.
    public let address: ListenAddress
    public let port: UInt16
    /// Where to open the site: `http://127.0.0.1:8080/`, `http://[::1]:8080/mysite/`; on every
    /// interface, at the machine's network address (`ListenAddress.visitingHost`).
    public let url: String

    /// How many files of the snapshot kept in `keptFiles` were served at start (0: none).
    public let keptFileCount: Int
    /// The folder the served files are stored in: `keptFiles`, or a temporary one.
    public var filesFolder: URL { router.store.folder }
    /// Whether the files are kept in `keptFiles` (false when another server holds it).
    public var keepsFiles: Bool { router.store.isKept }

    private let router: RequestRouter
    private let events: EventHub
    /// The running daemon; nil once stopped.
    private let daemon: Mutex<RunningDaemon?>

    /// Starts serving `site`. When the port is taken, `onNote` hears it and the next port is
    /// tried, up to `portAttempts` ports. Throws a `Diagnostic` when no port can be used.
    /// While the server runs, `onNote` also hears when the served files or their manifest
    /// cannot be written (a full disk), once until a write succeeds again.
    public static func start(_ configuration: Configuration = Configuration(),
                             site: ServedSite = ServedSite(),
                             onNote: @escaping @Sendable (String) -> Void = { _ in }) throws -> PreviewServer {
        tomo_http_ignore_sigpipe()
        let address = try ListenAddress(configuration.host)
        guard configuration.root.hasPrefix("/"), configuration.root.hasSuffix("/"), case .success(let root) = RequestTarget.parse(Array(configuration.root.utf8)) else {
            throw Diagnostic("cannot serve the site under \"\(configuration.root)\": the path must start and end with / and hold no . or .. folder")
        }
        let (socket, port) = try listen(host: address.text, configuration: configuration, onNote: onNote)
        let events = EventHub(heartbeatInterval: configuration.heartbeatInterval)
        let store = try BlobStore(keptIn: configuration.keptFiles, onProblem: onNote)
        let reloadScript = configuration.liveReload
            ? PreparedFile(path: "reload.js", bytes: Array(ReloadClient.script.utf8), store: store) : nil
        let router = RequestRouter(store: store, events: events, reloadScript: reloadScript,
                                   allowedHosts: AllowedHosts(address: address, port: port), root: root)
        // The kept snapshot is served from the first request on; what else the folder holds is
        // deleted while it is.
        let kept = router.publishKept()
        let context = Unmanaged.passRetained(router).toOpaque()
        var errorNumber: Int32 = 0
        let handler: tomo_http_handler = { context, connection, method, version, rawURI, headOnly in
            guard let context, let connection, let method, let version, let rawURI else { return .NO }
            let router = Unmanaged<RequestRouter>.fromOpaque(context).takeUnretainedValue()
            let uri = Array(UnsafeBufferPointer(start: rawURI, count: strlen(rawURI))).map { UInt8(bitPattern: $0) }
            return router.respond(to: connection, method: String(cString: method), version: String(cString: version),
                                  rawURI: uri, headOnly: headOnly != 0)
        }
        guard let daemon = tomo_http_start(socket, handler, context,
                                           configuration.idleTimeoutSeconds, &errorNumber) else {
            Unmanaged<RequestRouter>.fromOpaque(context).release()
            router.close()
            throw Diagnostic("cannot start the HTTP server on \(address.text):\(port): \(describe(errorNumber))")
        }
        router.sweep()
        if !site.files.isEmpty { _ = router.publish(whole: site.servedFiles(in: store)) }
        let url = "http://\(address.visitingHost()):\(port)\(configuration.root)"
        return PreviewServer(address: address, port: port, url: url, keptFileCount: kept, router: router, events: events, daemon: daemon)
    }

    private init(address: ListenAddress, port: UInt16, url: String, keptFileCount: Int, router: RequestRouter, events: EventHub, daemon: OpaquePointer) {
        self.address = address
        self.port = port
        self.url = url
        self.keptFileCount = keptFileCount
        self.router = router
        self.events = events
        self.daemon = Mutex(RunningDaemon(pointer: daemon))
    }

    /// Replaces the served files. Requests in flight finish with the snapshot they started
    /// with; every later request sees the new one. Files whose bytes did not change keep their
    /// prepared (compressed) form. Returns what changed, whose `reloadKind` is what to pass to
    /// `notifyReload` (nil: nothing changed, no reload needed).
    /// `keptForNextStart` false: the snapshot is not recorded in the kept files, so the next
    /// start does not serve it (an error page standing in for a site that does not build).
    @discardableResult
    public func publish(_ site: ServedSite, keptForNextStart: Bool = true) -> SiteChanges {
        router.publish(whole: site.servedFiles(in: router.store), record: keptForNextStart)
    }

    /// A file made ready to serve: its bytes stored (written once, unless the store holds them
    /// already), for `publish(whole:)` and `publish(changed:removed:)`. Safe on any thread.
    /// `writtenLater`: the bytes are written to disk soon on another thread and served from
    /// memory until then (for a rebuild's few files, so that it goes live without waiting for
    /// the disk; a whole build's would not fit in memory).
    public func servedFile(path: String, bytes: [UInt8], writtenLater: Bool = false) -> ServedFile {
        ServedFile(path: path, bytes: bytes, store: router.store, writtenLater: writtenLater)
    }

    /// `publish(_:)` with files already made ready to serve (`tomo serve` makes them as it
    /// renders).
    @discardableResult
    public func publish(whole files: [String: ServedFile]) -> SiteChanges {
        router.publish(whole: files)
    }

    /// Replaces only the files in `changed` and removes those in `removed`: the rest of the
    /// served site stays as it is, prepared and compressed.
    @discardableResult
    public func publish(changed: [String: ServedFile], removed: Set<String>) -> SiteChanges {
        router.publish(changed: changed, removed: removed)
    }

    /// Runs `body` (a rebuild and its publish) with no deletion of the files a publish let go
    /// started meanwhile: deletions run at the lowest priority, and a rebuild must neither
    /// share the cores with them nor wait for one.
    public func holdingDeletions<T>(_ body: () throws -> T) rethrows -> T {
        try router.store.holdingDeletions(body)
    }

    /// Has `handler` called, on a thread of its own, when a request finds that files the server
    /// stored were deleted from the disk while it served (`.tomo-cache/` deleted): it is to
    /// make every file again and `publish(whole:)` them, which stores them again; requests for
    /// them wait until it returns. Called once until such a publish.
    public func whenFilesAreLost(_ handler: @escaping @Sendable () -> Void) {
        router.lostFiles.setHandler(handler)
    }

    /// Tells open pages to reload (`.page`) or to re-fetch their stylesheets (`.css`).
    public func notifyReload(_ kind: ReloadKind) {
        events.send(kind)
    }

    /// Shows a build error over every open page (and pages opened later), or hides it (nil).
    public func showError(_ message: String?) {
        events.showError(message)
    }

    /// The number of open live-reload streams (for status lines and tests).
    public var openEventStreamCount: Int { events.openStreamCount }

    /// Ends the event streams, closes every connection, stops listening, and leaves the kept
    /// files for the next start (a temporary folder is removed). Safe to call twice.
    public func stop() {
        guard let running = daemon.withLock({ daemon -> RunningDaemon? in
            defer { daemon = nil }
            return daemon
        }) else { return }
        events.close()
        tomo_http_stop(running.pointer)
        router.close()
        // The retain `start` gave the C callbacks: no callback can run any more.
        Unmanaged.passUnretained(router).release()
    }

    deinit {
        stop()
    }

    /// Opens the listening socket on the first free port from `configuration.port` on.
    private static func listen(host: String, configuration: Configuration,
                               onNote: (String) -> Void) throws -> (socket: Int32, port: UInt16) {
        let attempts = configuration.port == 0 ? 1 : max(1, configuration.portAttempts)
        var port = configuration.port
        for attempt in 1...attempts {
            var errorNumber: Int32 = 0
            let socket = tomo_http_listen(host, port, &errorNumber)
            if socket >= 0 { return (socket, tomo_http_bound_port(socket)) }
            guard errorNumber == EADDRINUSE, attempt < attempts, port < UInt16.max else {
                throw Diagnostic("cannot listen on \(host):\(port): \(describe(errorNumber))")
            }
            onNote("port \(port) is in use; trying \(port + 1)")
            port += 1
        }
        throw Diagnostic("cannot listen on \(host): ports \(configuration.port)–\(port) are all in use")
    }

    private static func describe(_ errorNumber: Int32) -> String {
        String(cString: strerror(errorNumber))
    }
}

/// The C server handle; only `stop` uses it, once, under the server's lock.
private struct RunningDaemon: @unchecked Sendable {
    let pointer: OpaquePointer
}
