import CMicrohttpd
import CMicrohttpdShim
import Foundation
import Synchronization

/// Answers one request: first checks its head (framing, host), then serves the live-reload
/// endpoints or the current snapshot.
/// Runs on libmicrohttpd's connection threads, so it only reads shared state through locks.
final class RequestRouter: Sendable {
    private let snapshot: Mutex<PreparedSite>
    /// Held for a whole publish, so two publishers cannot both prepare from the same previous
    /// snapshot and lose one's reuse (requests only take `snapshot`, briefly).
    private let publishing = Mutex(())
    private let events: EventHub
    /// Nil when live reload is off: `/_tomo/…` is then looked up in the site like any path.
    private let reloadScript: PreparedFile?
    private let allowedHosts: AllowedHosts
    /// The path the site is served under (`mysite/`, or `""` at the root).
    private let root: RequestTarget

    init(site: PreparedSite, events: EventHub, reloadScript: PreparedFile?, allowedHosts: AllowedHosts, root: RequestTarget) {
        snapshot = Mutex(site)
        self.events = events
        self.reloadScript = reloadScript
        self.allowedHosts = allowedHosts
        self.root = root
    }

    /// Replaces the snapshot; requests already running keep the one they started with.
    func publish(whole files: [String: ServedFile]) -> SiteChanges {
        publishing.withLock { _ in
            let previous = snapshot.withLock { $0 }
            let (site, changes) = PreparedSite.replacing(previous, with: files)
            snapshot.withLock { $0 = site }
            return changes
        }
    }

    /// Replaces only the files in `changed` and drops those in `removed`; the rest of the
    /// snapshot is kept as prepared. The files were prepared where they were made, so requests
    /// wait only for the dictionary updates.
    func publish(changed: [String: ServedFile], removed: Set<String>) -> SiteChanges {
        publishing.withLock { _ in
            snapshot.withLock { $0.apply(changed, removed: removed) }
        }
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
                return send(reloadScript, status: 200, on: connection)
            }
        }
        let site = snapshot.withLock { $0 }
        guard target.path.hasPrefix(root.path) else {
            // `/` and the root without its slash lead into a site served under a folder.
            if target.path.isEmpty || target.path + "/" == root.path {
                return redirect(302, to: root.rawPath, query: target.query, on: connection)
            }
            return sendNotFound(target, site: site, on: connection)
        }
        switch site.resolve(String(target.path.dropFirst(root.path.count))) {
        case .file(let file):
            return send(file, status: 200, on: connection)
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
        if let page = site.notFoundPage { return send(page, status: 404, on: connection) }
        return sendText(404, "Not found: /\(target.path)\n", on: connection)
    }

    /// Sends a prepared file, or 304 when the client already has its content.
    private func send(_ file: PreparedFile, status: UInt32, on connection: OpaquePointer) -> MHD_Result {
        let chosen = file.representation(acceptsGzip: acceptsGzip(connection))
        if status == 200, let tags = header("If-None-Match", of: connection), file.matches(ifNoneMatch: tags) {
            var headers = [("ETag", chosen.etag), ("Cache-Control", "no-cache")]
            if file.isCompressible { headers.append(("Vary", "Accept-Encoding")) }
            guard let response = HTTPResponse(text: "", headers: headers) else { return .NO }
            return response.queue(on: connection, status: 304)
        }
        return chosen.response.queue(on: connection, status: status)
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
            guard coding == "gzip" || coding == "*" else { continue }
            // "gzip;q=0" means "never gzip".
            let refused = fields.dropFirst().contains {
                let parameter = $0.replacingOccurrences(of: " ", with: "")
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
                if strcasecmp(name, "Host") == 0 {
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
