import CMicrohttpd
import CMicrohttpdShim
import Foundation
import Synchronization

/// Answers one request: first checks its head (framing, host), then serves the live-reload
/// endpoints or the current snapshot.
/// Runs on libmicrohttpd's connection threads, so it only reads shared state through locks.
final class RequestRouter: Sendable {
    private let served = Mutex(Served())
    /// Held for a whole publish, so two publishers cannot both prepare from the same previous
    /// snapshot (requests only take `snapshot`, briefly); counts the blobs the snapshot names.
    private let publishing: Mutex<BlobUses>
    let store: BlobStore
    private let manifest: ManifestWriter?
    private let events: EventHub
    /// Nil when live reload is off: `/_tomo/…` is then looked up in the site like any path.
    private let reloadScript: PreparedFile?
    private let allowedHosts: AllowedHosts
    /// The path the site is served under (`mysite/`, or `""` at the root).
    private let root: RequestTarget
    /// Tells the server's owner when files it stored were deleted from the disk.
    let lostFiles = LostFilesAlarm()

    init(store: BlobStore, events: EventHub, reloadScript: PreparedFile?, allowedHosts: AllowedHosts, root: RequestTarget) {
        var uses = BlobUses()
        // The script is no file of the site, so no publish may delete its blob.
        if let reloadScript { _ = uses.record(.init(changes: SiteChanges(paths: []), released: [], taken: [reloadScript.blob])) }
        publishing = Mutex(uses)
        self.store = store
        manifest = store.isKept ? ManifestWriter(store: store) : nil
        self.events = events
        self.reloadScript = reloadScript
        self.allowedHosts = allowedHosts
        self.root = root
    }

    /// The snapshot served now.
    var snapshot: PreparedSite { served.withLock { $0.site } }

    /// Replaces the snapshot; requests already running keep the one they started with.
    /// `record` false: the manifest is not told (the next start does not serve this snapshot).
    func publish(whole files: [String: ServedFile], record: Bool = true) -> SiteChanges {
        publishing.withLock { uses in
            // Prepared outside the snapshot's lock: requests wait only for the swap.
            let (site, publish) = PreparedSite.replacing(served.withLock { $0.site }, with: files)
            served.withLock { $0.site = site }
            // Every file was stored as it was made: a later loss is one to tell again.
            lostFiles.rearm()
            return published(publish, uses: &uses, record: record)
        }
    }

    /// Replaces only the files in `changed` and drops those in `removed`; the rest of the
    /// snapshot is kept as prepared. The files were prepared where they were made, so requests
    /// wait only for the dictionary updates.
    func publish(changed: [String: ServedFile], removed: Set<String>) -> SiteChanges {
        publishing.withLock { uses in
            let publish = served.withLock { $0.site.apply(changed, removed: removed) }
            return published(publish, uses: &uses)
        }
    }

    /// Serves the snapshot the last preview that used the store recorded, its blobs checked as
    /// they are first asked for; returns the number of files (0 when nothing usable was kept).
    func publishKept() -> Int {
        guard store.isKept, let snapshot = store.readManifest(), snapshot.count > 0 else { return 0 }
        // Nothing is served yet, so nothing changes or is released: the snapshot is served
        // straight from the manifest (at 10,000 users, before the first page can be served).
        let site = PreparedSite(kept: snapshot, store: store)
        publishing.withLock { uses in
            served.withLock { $0.site = site }
            _ = published(.init(changes: SiteChanges(paths: []), released: [], taken: site.blobs), uses: &uses, record: false)
        }
        return site.count
    }

    /// Has every blob the served snapshot does not name (what earlier runs left) deleted, soon
    /// and on another thread. Runs before anything else stores blobs, which it would take for
    /// an earlier run's.
    func sweep() {
        let site = served.withLock { $0.site }
        store.sweep(keeping: Set(site.blobs + (reloadScript.map { [$0.blob] } ?? [])))
    }

    /// Once no request runs any more: finishes writing the manifest and lets the store go.
    func close() {
        manifest?.flush()
        store.close()
    }

    /// After a publish went live: deletes the blobs its snapshot no longer names, as soon as no request that
    /// looked a file up in an earlier snapshot is still to open its blob (one that opened it
    /// reads it whole: the descriptor outlives the unlink), and has the manifest record the
    /// snapshot for the next preview (`record`; not for the one read from it).
    private func published(_ publish: PreparedSite.Publish, uses: inout BlobUses, record: Bool = true) -> SiteChanges {
        let unused = uses.record(publish)
        store.retire(unused)
        store.deleteRetired(served.withLock { served -> [BlobName] in
            served.unused += unused
            return served.takeUnusedWhenIdle()
        })
        if record { manifest?.published(by: self) }
        return publish.changes
    }

    /// Checks a request whose headers just arrived (`headOnly`), refusing it at once when its
    /// head is wrong; answers it once its body is in.
    func respond(to connection: OpaquePointer, method: String, version: String, rawURI: [UInt8],
                 headOnly: Bool) -> MHD_Result {
        if headOnly {
            guard let refusal = head(of: connection, version: version).refusal(allowing: allowedHosts) else {
                return .YES
            }
            // Closed: what follows on the connection cannot be trusted to be a request.
            return send(refusal, on: connection, extraHeaders: [("Connection", "close")])
        }
        guard method == "GET" || method == "HEAD" else {
            return sendText(405, "Only GET and HEAD are served.\n", on: connection, extraHeaders: [("Allow", "GET, HEAD")])
        }
        let target: RequestTarget
        switch RequestTarget.parse(rawURI) {
        case .success(let parsed): target = parsed
        case .failure(let refusal): return send(refusal, on: connection)
        }
        if let reloadScript {
            if "/" + target.path == ReloadClient.eventsPath { return openEventStream(on: connection) }
            if "/" + target.path == ReloadClient.scriptPath {
                return send(reloadScript, status: 200, on: connection) ?? sendUnreadable(on: connection)
            }
        }
        return withSnapshot { site in serve(target, site: site, on: connection, mayWaitForLostFiles: true) }
    }

    /// Runs `body` with the served snapshot, whose blobs are not deleted meanwhile.
    private func withSnapshot(_ body: (PreparedSite) -> MHD_Result) -> MHD_Result {
        let site = served.withLock { served in
            served.opening += 1
            return served.site
        }
        defer { store.deleteRetired(served.withLock { served in
            served.opening -= 1
            return served.takeUnusedWhenIdle()
        }) }
        return body(site)
    }

    /// Answers a request for a file of the site from `site`.
    private func serve(_ target: RequestTarget, site: PreparedSite, on connection: OpaquePointer,
                       mayWaitForLostFiles: Bool) -> MHD_Result {
        guard target.path.hasPrefix(root.path) else {
            // `/` and the root without its slash lead into a site served under a folder.
            if target.path.isEmpty || target.path + "/" == root.path {
                return redirect(302, to: root.rawPath, query: target.query, on: connection)
            }
            return sendNotFound(target, site: site, on: connection)
        }
        switch site.resolve(String(target.path.dropFirst(root.path.count))) {
        case .file(let file) where file.isIntact:
            if let sent = send(file, status: 200, on: connection) { return sent }
            // Stored by this server and gone: its folder was deleted while it served. The
            // owner stores every file again; this request waits for that and is answered from
            // the site published then.
            if mayWaitForLostFiles, store.isMissing(file.blob),
               lostFiles.ringAndWait(before: { [store] in store.remakeFolders() }) {
                return withSnapshot { serve(target, site: $0, on: connection, mayWaitForLostFiles: false) }
            }
            return sendUnreadable(on: connection)
        case .file:
            // A kept file whose blob is damaged or gone: not served until the build makes it.
            return sendNotFound(target, site: site, on: connection)
        case .addSlash:
            return redirect(301, to: target.rawPath + "/", query: target.query, on: connection)
        case .notFound:
            return sendNotFound(target, site: site, on: connection)
        }
    }

    /// A redirect that browsers do not keep: the next preview may serve another site there.
    private func redirect(_ status: UInt32, to path: String, query: String?, on connection: OpaquePointer) -> MHD_Result {
        let location = path + (query.map { "?" + $0 } ?? "")
        return sendText(status, "Moved to \(location)\n", on: connection,
                        extraHeaders: [("Location", location), ("Cache-Control", "no-cache")])
    }

    private func sendNotFound(_ target: RequestTarget, site: PreparedSite, on connection: OpaquePointer) -> MHD_Result {
        // Before the first build publishes anything, every page may be on its way: not "not
        // found", but a page that asks again in a second (without scripts, as the error page).
        if !site.isPublished {
            let page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"1\"><title>Building the site…</title></head>\n<body><p>Building the site… this page reloads when it is ready.</p></body></html>\n"
            guard let response = HTTPResponse(text: page, headers: [("Content-Type", "text/html; charset=utf-8"), ("Retry-After", "1"), ("Cache-Control", "no-store")]) else { return .NO }
            return response.queue(on: connection, status: 503)
        }
        if let page = site.notFoundPage, page.isIntact, let sent = send(page, status: 404, on: connection) { return sent }
        return sendText(404, "Not found: /\(target.path)\n", on: connection)
    }

    private func sendUnreadable(on connection: OpaquePointer) -> MHD_Result {
        sendText(503, "The file cannot be read now; reload in a moment.\n", on: connection)
    }

    /// Sends a prepared file, or 304 when the client already has its content; nil when its
    /// blob cannot be read (nothing was sent).
    private func send(_ file: PreparedFile, status: UInt32, on connection: OpaquePointer) -> MHD_Result? {
        let gzip = acceptsGzip(connection)
        if status == 200, let tags = header("If-None-Match", of: connection),
           let notModified = file.notModifiedResponse(ifNoneMatch: tags, acceptsGzip: gzip) {
            guard let notModified else { return .NO }
            return notModified.queue(on: connection, status: 304)
        }
        guard let response = file.response(acceptsGzip: gzip) else { return nil }
        return response.queue(on: connection, status: status)
    }

    private func send(_ refusal: Refusal, on connection: OpaquePointer,
                      extraHeaders: [(String, String)] = []) -> MHD_Result {
        sendText(refusal.status, refusal.text, on: connection, extraHeaders: extraHeaders)
    }

    private func sendText(_ status: UInt32, _ text: String, on connection: OpaquePointer,
                          extraHeaders: [(String, String)] = []) -> MHD_Result {
        let headers = [("Content-Type", "text/plain; charset=utf-8")] + extraHeaders
        guard let response = HTTPResponse(text: text, headers: headers) else { return .NO }
        return response.queue(on: connection, status: status)
    }

    private func openEventStream(on connection: OpaquePointer) -> MHD_Result {
        guard let stream = events.open() else {
            return sendText(503, "The server is stopping.\n", on: connection)
        }
        let context = Unmanaged.passRetained(stream).toOpaque()
        let response = HTTPResponse(
            streaming: { context, _, buffer, capacity in
                guard let context, let buffer else { return tomo_http_end_of_stream }
                let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
                let target = UnsafeMutableRawBufferPointer(start: buffer, count: capacity)
                return stream.hub.read(stream, into: target) ?? tomo_http_end_of_stream
            },
            context: context,
            release: { context in
                guard let context else { return }
                let stream = Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue()
                stream.hub.remove(stream)
            },
            headers: [("Content-Type", "text/event-stream; charset=utf-8"),
                      ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no")])
        guard let response else {
            Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue().hub.remove(stream)
            return .NO
        }
        return response.queue(on: connection, status: 200)
    }

    private func acceptsGzip(_ connection: OpaquePointer) -> Bool {
        guard let value = header("Accept-Encoding", of: connection) else { return false }
        for part in value.split(separator: ",") {
            let fields = part.split(separator: ";")
            let coding = fields.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            // `x-gzip` is gzip by another name (RFC 9110 §8.4.1.3).
            guard coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            // "gzip;q=0" means "never gzip" (the weight's name in either case).
            let refused = fields.dropFirst().contains {
                let parameter = $0.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\t", with: "").lowercased()
                return parameter == "q=0" || parameter.hasPrefix("q=0.") && parameter.dropFirst(4).allSatisfy { $0 == "0" }
            }
            return !refused
        }
        return false
    }

    /// The headers `RequestHead` checks, read from the connection.
    private func head(of connection: OpaquePointer, version: String) -> RequestHead {
        var head = RequestHead(version: version)
        withUnsafeMutablePointer(to: &head) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, name, value in
                guard let context, let name else { return .YES }
                let head = context.assumingMemoryBound(to: RequestHead.self)
                let text = value.map { String(cString: $0) } ?? ""
                if strchr(name, 0x20) != nil || strchr(name, 0x09) != nil {
                    head.pointee.hasNameWithSpace = true
                } else if strcasecmp(name, "Host") == 0 {
                    head.pointee.hosts.append(text)
                } else if strcasecmp(name, "Content-Length") == 0 {
                    head.pointee.contentLengths.append(text)
                } else if strcasecmp(name, "Transfer-Encoding") == 0 {
                    head.pointee.transferEncodings.append(text)
                }
                return .YES
            }, pointer)
        }
        return head
    }

    private func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }
}

/// The snapshot requests read, with what keeps its blobs on disk while a request opens them.
private struct Served {
    var site = PreparedSite()
    /// Requests between looking a file up and opening its blob.
    var opening = 0
    /// Blobs no snapshot names any more, deleted once no request is opening.
    var unused: [BlobName] = []

    mutating func takeUnusedWhenIdle() -> [BlobName] {
        guard opening == 0, !unused.isEmpty else { return [] }
        defer { unused = [] }
        return unused
    }
}
