import CMicrohttpd
import Foundation
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

    /// A response sending `size` bytes of an open file from its start; MHD closes the
    /// descriptor when the response is done (here, too, when it cannot be made). Nil when MHD
    /// is out of memory.
    convenience init?(file descriptor: Int32, size: Int, headers: [(String, String)]) {
        guard let pointer = MHD_create_response_from_fd64(UInt64(size), descriptor) else {
            close(descriptor)
            return nil
        }
        self.init(pointer: pointer, headers: headers)
    }

    /// A response with a short body MHD copies (error texts, redirects).
    convenience init?(text: String, headers: [(String, String)]) {
        self.init(bytes: Array(text.utf8), headers: headers)
    }

    /// A response with a body MHD copies (a page not yet written to its blob).
    convenience init?(bytes: [UInt8], headers: [(String, String)]) {
        // MHD copies the buffer and never writes to it: the bytes, shared with the store, are
        // not copied first.
        guard let pointer = bytes.withUnsafeBytes({
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }) else { return nil }
        self.init(pointer: pointer, headers: headers)
    }

    /// The head of a response whose body, never sent, is `size` bytes long: a 304, whose
    /// `Content-Length` must be the 200's own (RFC 9110 §8.6). libmicrohttpd 0.9.75 gives every
    /// response of known size a `Content-Length`, and a `304` made from an empty buffer claimed
    /// 0; leaving the length out takes a response of unknown size, which MHD then either sends
    /// chunked (a body after a 304) or ends by closing the connection, losing keep-alive for
    /// every revalidation. MHD sends no body for a 304 (nor for HEAD), so the reader never runs;
    /// were it ever called, ending early makes MHD close the connection rather than send
    /// anything.
    convenience init?(headOnly size: Int, headers: [(String, String)]) {
        guard let pointer = MHD_create_response_from_callback(
            UInt64(size), 1024, { _, _, _, _ in tomo_http_end_of_stream }, nil, nil)
        else { return nil }
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
