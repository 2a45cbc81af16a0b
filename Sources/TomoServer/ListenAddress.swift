import Foundation
import TomoCore

/// The IPv4 address the preview server listens on, read once from what the user gave
/// (`--host`), so binding, the `Host` check and the "reachable from the network" warning all
/// decide from the same value.
public struct ListenAddress: Sendable {
    /// The address in dotted-decimal form, as `inet_ntop` writes it: `127.0.0.1`, `0.0.0.0`.
    public let text: String
    private let octets: (UInt8, UInt8, UInt8, UInt8)

    /// `localhost` means 127.0.0.1; anything else must be an IPv4 address in dotted-decimal form.
    /// Throws a `Diagnostic` saying so otherwise.
    public init(_ host: String) throws {
        let name = host.lowercased() == "localhost" ? "127.0.0.1" : host
        guard let octets = Self.ipv4Octets(name) else {
            throw Diagnostic("cannot listen on \"\(host)\": the host must be an IPv4 address such as 127.0.0.1")
        }
        self.octets = octets
        text = "\(octets.0).\(octets.1).\(octets.2).\(octets.3)"
    }

    /// 0.0.0.0: every interface of the machine.
    public var isAllInterfaces: Bool { octets == (0, 0, 0, 0) }

    /// 127.0.0.0/8: only this machine can connect. Any other address (0.0.0.0 included) lets
    /// other machines on the network reach the server.
    public var isLoopback: Bool { octets.0 == 127 }

    /// The four bytes of a dotted-decimal IPv4 address (`inet_pton`: exactly four decimal parts,
    /// no leading zeros), or nil.
    static func ipv4Octets(_ text: String) -> (UInt8, UInt8, UInt8, UInt8)? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address.s_addr) { ($0[0], $0[1], $0[2], $0[3]) }
    }

    /// Whether `text` is an IPv6 address (without brackets).
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
