import CMicrohttpdShim
import Foundation
import TomoCore

/// The IPv4 or IPv6 address the preview server listens on, read once from what the user gave
/// (`--host`), so binding, the `Host` check, the URL pages are given and the "reachable from
/// the network" warning all decide from the same value.
public struct ListenAddress: Sendable {
    /// The address as `inet_ntop` writes it: `127.0.0.1`, `0.0.0.0`, `::1`, `::`.
    public let text: String
    public let isIPv6: Bool
    /// The address's 4 or 16 bytes, in network order.
    private let bytes: [UInt8]

    /// `localhost` means 127.0.0.1; anything else must be an IPv4 address in dotted-decimal form
    /// or an IPv6 address, with or without brackets (`::1`, `[::1]`). Throws a `Diagnostic`
    /// saying so otherwise.
    public init(_ host: String) throws {
        let name = host.lowercased() == "localhost" ? "127.0.0.1" : host
        let unbracketed = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if let octets = Self.ipv4Octets(name) {
            bytes = [octets.0, octets.1, octets.2, octets.3]
            isIPv6 = false
        } else if let ipv6 = Self.ipv6Bytes(unbracketed) {
            bytes = ipv6
            isIPv6 = true
        } else {
            throw Diagnostic("cannot listen on \"\(host)\": the host must be an IPv4 or IPv6 address such as 127.0.0.1 or ::1")
        }
        text = Self.text(of: bytes, ipv6: isIPv6)
    }

    /// The address as a URL writes it: `127.0.0.1`, `[::1]`.
    public var urlHost: String { isIPv6 ? "[\(text)]" : text }

    /// 0.0.0.0 or `::`: every interface of the machine.
    public var isAllInterfaces: Bool { bytes.allSatisfy { $0 == 0 } }

    /// 127.0.0.0/8 or ::1 (::ffff:127.x.x.x too): only this machine can connect. Any other
    /// address (0.0.0.0 and `::` included) lets other machines on the network reach the server.
    public var isLoopback: Bool {
        guard isIPv6 else { return bytes[0] == 127 }
        let mappedIPv4 = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return bytes == [UInt8](repeating: 0, count: 15) + [1] || mappedIPv4 && bytes[12] == 127
    }

    /// The host a URL of this server names, so that the page links work where the server can
    /// be reached: the address itself, or, on every interface, the machine's first address on
    /// an interface that is up and not loopback (an IPv4 one first: what a phone on the same
    /// network reaches; `::` takes IPv4 too). The loopback address when there is none.
    /// Reads the interfaces on each call.
    public func visitingHost() -> String {
        guard isAllInterfaces else { return urlHost }
        if let ipv4 = Self.interfaceAddress(AF_INET) { return ipv4 }
        if isIPv6, let ipv6 = Self.interfaceAddress(AF_INET6) { return "[\(ipv6)]" }
        return isIPv6 ? "[::1]" : "127.0.0.1"
    }

    /// The four bytes of a dotted-decimal IPv4 address (`inet_pton`: exactly four decimal parts,
    /// no leading zeros), or nil.
    static func ipv4Octets(_ text: String) -> (UInt8, UInt8, UInt8, UInt8)? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address.s_addr) { ($0[0], $0[1], $0[2], $0[3]) }
    }

    /// The 16 bytes of an IPv6 address (without brackets), or nil.
    static func ipv6Bytes(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// Whether `text` is an IPv6 address (without brackets).
    static func isIPv6(_ text: String) -> Bool {
        ipv6Bytes(text) != nil
    }

    /// The canonical text of an address (`::1` for `0:0:0:0:0:0:0:1`).
    private static func text(of bytes: [UInt8], ipv6: Bool) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { inet_ntop(ipv6 ? AF_INET6 : AF_INET, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first address of `family` of an interface that is up and not loopback, or nil.
    private static func interfaceAddress(_ family: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard tomo_http_interface_address(family, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
