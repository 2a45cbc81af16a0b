import Foundation

/// An `email` a profile keeps private (no `showEmail: true`), and whether a text shows it, as
/// a page would show the text: in any letter case, with its `%` escapes decoded
/// (`mailto:hid%40example.org`), and with the domain in either of its IDNA spellings
/// (`hid@例え.jp` is `hid@xn--r8jz45g.jp`, which browsers and mail programs take for one), its
/// dots written as any of the full stops IDNA reads as one (`例え。jp`).
public struct PrivateAddress: Sendable {
    /// As the profile writes it.
    public let address: String
    /// The address lowercased, in each spelling of its domain.
    private let spellings: [String]

    public init(_ address: String) {
        self.address = address
        let lowered = Self.withPlainDots(address.lowercased())
        var spellings = [lowered]
        if let at = lowered.lastIndex(of: "@") {
            let local = lowered[...at]
            let domain = String(lowered[lowered.index(after: at)...])
            for other in [DomainName.ascii(domain), DomainName.unicode(domain)] {
                if let other = other?.lowercased(), !spellings.contains(local + other) { spellings.append(local + other) }
            }
        }
        self.spellings = spellings
    }

    /// Whether `text` shows the address.
    public func isShown(in text: String) -> Bool {
        let lowered = Self.withPlainDots(text.lowercased())
        if spellings.contains(where: lowered.contains) { return true }
        guard lowered.contains("%"), let decoded = lowered.removingPercentEncoding else { return false }
        return spellings.contains(where: Self.withPlainDots(decoded).contains)
    }

    /// The full stops UTS #46 maps to `.` in a domain (ideographic, full-width, half-width).
    private static let otherFullStops: Set<Character> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// `text` with each of `otherFullStops` written `.`.
    private static func withPlainDots(_ text: String) -> String {
        guard text.contains(where: otherFullStops.contains) else { return text }
        return String(text.map { otherFullStops.contains($0) ? "." : $0 })
    }
}
