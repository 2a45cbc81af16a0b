import Foundation

/// An `email` a profile keeps private (no `showEmail: true`), and whether a text shows it, as
/// a page would show the text: in any letter case, with its `%` escapes decoded
/// (`mailto:hid%40example.org`), and with the domain in either of its IDNA spellings
/// (`hid@例え.jp` is `hid@xn--r8jz45g.jp`, which browsers and mail programs take for one).
public struct PrivateAddress: Sendable {
    /// As the profile writes it.
    public let address: String
    /// The address lowercased, in each spelling of its domain.
    private let spellings: [String]

    public init(_ address: String) {
        self.address = address
        let lowered = address.lowercased()
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
        let lowered = text.lowercased()
        if spellings.contains(where: lowered.contains) { return true }
        guard lowered.contains("%"), let decoded = lowered.removingPercentEncoding else { return false }
        return spellings.contains(where: decoded.contains)
    }
}
