import Foundation

/// An `email` a profile keeps private (no `showEmail: true`), and whether a text shows it, as
/// a reader of the page would read the text. Both are compared folded (`folded`): in any letter
/// case, full-width letters as letters, with no mark or invisible character between or after
/// the letters (`alice@example.com` followed by U+200C still shows it: as characters, the
/// joiner made `m` another one), and its dots written as any full stop IDNA reads as one
/// (`例え。jp`). A text is also read with its `%` escapes decoded (`mailto:hid%40example.org`),
/// and the domain in either of its IDNA spellings (`hid@例え.jp` is `hid@xn--r8jz45g.jp`, which
/// browsers and mail programs take for one). A longer address holding it is taken for it too:
/// a page refused for a lookalike costs an edit, one published for a miss costs the address.
public struct PrivateAddress: Sendable {
    /// As the profile writes it.
    public let address: String
    /// The address folded, in each spelling of its domain.
    private let spellings: [[UInt8]]

    public init(_ address: String) {
        self.address = address
        let lowered = address.lowercased()
        var written = [lowered]
        if let at = lowered.lastIndex(of: "@") {
            let local = lowered[...at]
            let domain = String(lowered[lowered.index(after: at)...])
            written += [DomainName.ascii(domain), DomainName.unicode(domain)].compactMap { $0.map { local + $0 } }
        }
        var spellings: [[UInt8]] = []
        for spelling in written.map(Self.folded) where !spellings.contains(spelling) { spellings.append(spelling) }
        self.spellings = spellings
    }

    /// Whether `text` shows the address.
    public func isShown(in text: String) -> Bool {
        if shows(Self.folded(text)) { return true }
        guard text.contains("%"), let decoded = text.removingPercentEncoding else { return false }
        return shows(Self.folded(decoded))
    }

    private func shows(_ folded: [UInt8]) -> Bool {
        spellings.contains { folded.firstRange(of: $0) != nil }
    }

    /// `text` as it is compared, in UTF-8: its compatibility decomposition (NFKD: `ｂ` is `b`,
    /// `ü` is `u` and a mark) lowercased, without marks and default-ignorable code points
    /// (joiners, soft hyphens, variation selectors), each full stop IDNA maps to `.` written so.
    /// Compared as bytes, not as characters, which a mark or joiner after a letter changes.
    static func folded(_ text: String) -> [UInt8] {
        var folded = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            let properties = scalar.properties
            if properties.isDefaultIgnorableCodePoint { continue }
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            folded.append(fullStops.contains(scalar.value) ? "." : scalar)
        }
        return Array(String(folded).utf8)
    }

    /// The full stops UTS #46 maps to `.` in a domain (ideographic, full-width, half-width).
    private static let fullStops: Set<UInt32> = [0x3002, 0xFF0E, 0xFF61]
}
