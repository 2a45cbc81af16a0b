import Foundation
import TomoContent

/// The ids of the feeds and their entries: `tag:` URIs (RFC 4151) that stay the same as long as
/// the site's address does, through `tomo user rename`, edits and clean rebuilds, as Atom asks
/// of an id (RFC 4287 §4.2.6); a post's URL would change with its owner's handle.
///
/// A registered user is named by their registration: the day the store says they registered,
/// and their registration order (`sequence`, given once and to no one else), never by their
/// handle. `tag:example.com,2026-05-01:user-7/sunset` is the post `sunset` of the 7th user
/// registered, and `tag:example.com,2026-05-01:user-7` their feed. A profile the store does not
/// know (a site without registrations) is named by its handle and the post's day instead
/// (`tag:example.com,2026-05-02:alice/sunset`), and its feed's id is the feed's URL; such a
/// profile cannot be renamed. `user-7` is no handle (a handle has no `-`), so the two kinds never
/// meet. The authority is the base URL's host (without its port; an IPv6 address by its
/// `ip6.arpa` name, as the DNS names it); the base URL's path comes
/// first in the rest, so two sites on one host keep apart (`tag:example.github.io,…:mysite/user-7`).
enum FeedIDs {
    /// The id of `post`, whose owner registered as `registration` (nil: unknown to the store).
    static func entry(_ post: Post, registration: SocialGraph.Registration?, address: SiteAddress) -> String {
        if let registration {
            return tag(address, day: registration.date, name: "\(user(registration))/\(post.slug)")
        }
        return tag(address, day: post.date, name: "\(post.handle)/\(post.slug)")
    }

    /// The id of the feed of a user who registered as `registration`; nil when the store does
    /// not know them (the feed's URL is its id then).
    static func feed(registration: SocialGraph.Registration?, address: SiteAddress) -> String? {
        registration.map { tag(address, day: $0.date, name: user($0)) }
    }

    private static func user(_ registration: SocialGraph.Registration) -> String { "user-\(registration.sequence)" }

    /// `tag:<host>,<day in UTC>:<base path><name>`.
    private static func tag(_ address: SiteAddress, day: Date, name: String) -> String {
        let afterScheme = address.baseURL.split(separator: "://", maxSplits: 1).last ?? ""
        let authority = afterScheme.prefix { $0 != "/" }
        let basePath = afterScheme.dropFirst(authority.count + 1)
        let host = authority.hasPrefix("[") ? reverseName(ofIPv6: authority.dropFirst().prefix { $0 != "]" }) : String(authority.prefix { $0 != ":" })
        let date = PostDates.rfc3339(day, utcOffset: 0).prefix { $0 != "T" }
        // A tag's authority is a DNS name (RFC 4151): the root's dot of `example.com.` goes.
        let authorityName = host.hasSuffix(".") ? String(host.dropLast()) : host
        return "tag:\(authorityName.lowercased()),\(date):\(basePath)\(name)"
    }

    /// The DNS name of an IPv6 address in `ip6.arpa` (`::1` → `1.0.0.…0.ip6.arpa`, RFC 3596):
    /// a tag's authority cannot be an address in brackets. The address as written when it is
    /// not one (which a base URL's check refuses).
    private static func reverseName(ofIPv6 text: Substring) -> String {
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(text), &address) == 1 else { return String(text) }
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        let nibbles = bytes.reversed().flatMap { [String($0 & 0x0F, radix: 16), String($0 >> 4, radix: 16)] }
        return nibbles.joined(separator: ".") + ".ip6.arpa"
    }
}
