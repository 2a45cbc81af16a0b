import CMicrohttpd
import CMicrohttpdShim

/// An owned libmicrohttpd response. MHD counts references itself, so one response can be queued
/// on many connections at once; `deinit` drops ours and MHD frees it after the last send.
///
/// Every response the server sends is made here, so every one carries `securityHeaders`.
final class HTTPResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// On every response: the browser must take `Content-Type` as it is and never guess
    /// another type from the bytes (a text file run as a script, an image read as HTML).
    static let securityHeaders = [("X-Content-Type-Options", "nosniff")]

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A response whose body is `body` itself (no copy); nil when MHD is out of memory.
    convenience init?(body: StableBytes, headers: [(String, String)]) {
        let retained = Unmanaged.passRetained(body).toOpaque()
        guard let pointer = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, UnsafeMutableRawPointer(mutating: body.bytes.baseAddress), { context in
                guard let context else { return }
                Unmanaged<StableBytes>.fromOpaque(context).release()
            }, retained)
        else {
            Unmanaged<StableBytes>.fromOpaque(retained).release()
            return nil
        }
        self.init(pointer: pointer, headers: headers)
    }

    /// A response with a short body MHD copies (error texts, redirects, 304s).
    convenience init?(text: String, headers: [(String, String)]) {
        var bytes = Array(text.utf8)
        guard let pointer = bytes.withUnsafeMutableBytes({
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }) else { return nil }
        self.init(pointer: pointer, headers: headers)
    }

    /// A body produced while it is sent (the event stream); `context` is passed to both callbacks.
    convenience init?(streaming reader: MHD_ContentReaderCallback,
                      context: UnsafeMutableRawPointer,
                      release: MHD_ContentReaderFreeCallback,
                      headers: [(String, String)]) {
        guard let pointer = MHD_create_response_from_callback(
            tomo_http_size_unknown, 1024, reader, context, release)
        else { return nil }
        self.init(pointer: pointer, headers: headers)
    }

    private convenience init(pointer: OpaquePointer, headers: [(String, String)]) {
        self.init(pointer: pointer)
        for (name, value) in Self.securityHeaders + headers {
            _ = MHD_add_response_header(pointer, name, value)
        }
    }

    /// Sends this response on a connection with a status code.
    func queue(on connection: OpaquePointer, status: UInt32) -> MHD_Result {
        MHD_queue_response(connection, status, pointer)
    }

    deinit {
        MHD_destroy_response(pointer)
    }
}
