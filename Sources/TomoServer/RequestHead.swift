import Foundation

/// What the server checks in a request's headers before it reads the body or looks anything up:
/// that the request's length is unambiguous and that it was sent to this server. A refused
/// request is answered at once and its connection closed.
struct RequestHead: Equatable {
    /// `HTTP/1.1` or `HTTP/1.0` (libmicrohttpd answers other versions itself).
    var version: String
    /// The values of every `Host`, `Content-Length` and `Transfer-Encoding` header, in order.
    var hosts: [String] = []
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    /// Whether a header's name has white space in it (`Host : x`), which another server on the
    /// way may read as a header of that name and this one does not (RFC 9112 §5.1).
    var hasNameWithSpace = false

    /// Why this request is not served, or nil when it may go on.
    ///
    /// - 400 for framing another server on the way could read differently (RFC 9112 §6.3): two
    ///   `Content-Length` values that differ, or `Content-Length` with `Transfer-Encoding`; and
    ///   for a missing (HTTP/1.1), repeated or malformed `Host` (RFC 9112 §3.2); and for a
    ///   header name with white space before its colon (RFC 9112 §5.1).
    /// - 501 for a transfer coding other than `chunked`, whose body this server cannot read
    ///   (RFC 9112 §6.1).
    /// - 421 for a host that is not this server: a page on another site that got its name
    ///   pointed at 127.0.0.1 (DNS rebinding) sends that name, and so cannot read the preview.
    func refusal(allowing allowed: AllowedHosts) -> Refusal? {
        if hasNameWithSpace { return .badRequest("a header has white space between its name and the colon") }
        if Set(contentLengths.map { $0.trimmingCharacters(in: .whitespaces) }).count > 1 {
            return .badRequest("the request has Content-Length headers that differ")
        }
        if !contentLengths.isEmpty && !transferEncodings.isEmpty {
            return .badRequest("the request has both Content-Length and Transfer-Encoding")
        }
        let codings = transferEncodings.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return Refusal(status: 501, reason: "the transfer coding \"\(unknown)\" is not one this server reads (only chunked)")
        }
        guard hosts.count <= 1 else { return .badRequest("the request has more than one Host header") }
        guard let value = hosts.first else {
            // HTTP/1.0 has no Host header; browsers never send such a request.
            return version == "HTTP/1.0" ? nil : .badRequest("an HTTP/1.1 request needs a Host header")
        }
        guard let host = HostHeader(value) else {
            return .badRequest("the Host header is not a host name or address with an optional port")
        }
        guard allowed.allows(host) else { return Refusal(status: 421, reason: allowed.explanation) }
        return nil
    }
}

/// A `Host` header value taken apart: `localhost:8080`, `127.0.0.1`, `[::1]:3000`.
struct HostHeader: Equatable {
    /// Lower-cased; an IPv6 address keeps its brackets (`[::1]`).
    var name: String
    /// Nil when the value has none (an empty port, `localhost:`, is none too).
    var port: UInt16?
    /// Whether the name is an IPv4 or IPv6 address rather than a DNS name.
    var isAddressLiteral: Bool

    /// Nil when the value is no host (`a b`, `[::1`, `x:y:z`, `host:99999`).
    init?(_ value: String) {
        let text = value.trimmingCharacters(in: .whitespaces)
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let address = text[text.index(after: text.startIndex)..<close]
            guard ListenAddress.isIPv6(String(address)) else { return nil }
            name = "[" + address.lowercased() + "]"
            isAddressLiteral = true
            portText = text[text.index(after: close)...]
        } else {
            let colon = text.firstIndex(of: ":") ?? text.endIndex
            let host = text[..<colon]
            // A DNS name or an IPv4 address: letters, digits, `-`, `.` and `_` only.
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) else {
                return nil
            }
            name = host.lowercased()
            isAddressLiteral = ListenAddress.ipv4Octets(name) != nil
            portText = text[colon...]
        }
        if portText.isEmpty || portText == ":" {
            port = nil
        } else {
            let digits = portText.dropFirst()
            guard portText.first == ":", digits.count <= 5, digits.allSatisfy({ ("0"..."9").contains($0) }),
                  let number = UInt16(digits) else { return nil }
            port = number
        }
    }
}

/// The hosts a request may name: this server, by an address or name that leads only to it.
struct AllowedHosts: Sendable {
    let address: ListenAddress
    let port: UInt16

    /// `localhost`, `127.0.0.1`, `[::1]` and the listening address, with the listening port; a
    /// value without a port means port 80, as browsers leave the default port out. Listening on
    /// 0.0.0.0 or `::`, any IP address is allowed too (the machine's own, whichever interface the
    /// request came in on): a page can make a browser send an address only by being served
    /// from that address itself, so only DNS names can rebind.
    func allows(_ host: HostHeader) -> Bool {
        guard (host.port ?? 80) == port else { return false }
        return names.contains(host.name) || address.isAllInterfaces && host.isAddressLiteral
    }

    /// The names allowed whatever the address.
    private var names: [String] {
        let loopback = ["localhost", "127.0.0.1", "[::1]"]
        return loopback.contains(address.urlHost) || address.isAllInterfaces ? loopback : loopback + [address.urlHost]
    }

    /// The 421 text: what to ask for instead.
    var explanation: String {
        var choices = names
        if address.isAllInterfaces { choices.append("any IP address") }
        let listed = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
        return "this server answers only requests for \(listed), port \(port)"
    }
}
