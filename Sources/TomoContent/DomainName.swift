import CICUShim

/// A domain name in its two IDNA spellings (UTS #46, nontransitional), which browsers and mail
/// programs take for one: `例え.jp` and `xn--r8jz45g.jp`.
public enum DomainName {
    /// The ASCII spelling, or nil when the name has none (a character IDNA disallows, a label
    /// too long).
    public static func ascii(_ name: String) -> String? { converted(name, by: tomo_domain_to_ascii) }

    /// The Unicode spelling, or nil when the name has none.
    public static func unicode(_ name: String) -> String? { converted(name, by: tomo_domain_to_unicode) }

    private static func converted(_ name: String, by convert: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var converted = [CChar](repeating: 0, count: 1024)
        let length = convert(name, &converted, Int32(converted.count))
        guard length > 0 else { return nil }
        return String(decoding: converted.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
