import Foundation
import TomoCore

extension ContentLoader {
    /// An error for each public post of `posts` that shows its owner's private `email` (no
    /// `showEmail: true`) in its caption or alt text, as the profile's own fields may not
    /// (`PrivateAddress`): the caption as written and as the page shows it (its HTML, and that
    /// HTML without its tags, so that `hid@*example*.org` is seen). Checked once both the
    /// profiles and the posts are read, whether all of them or a few again (`tomo serve`): a
    /// post read from the parsed files' cache is checked against the profile as it is now.
    /// `addresses`: the owners' (`privateAddresses(of:)`).
    public static func privateAddressProblems(in posts: some Sequence<Post>, addresses: [String: PrivateAddress], site: URL) -> [Diagnostic] {
        guard !addresses.isEmpty else { return [] }
        var problems: [Diagnostic] = []
        for post in posts where post.visibility == .public {
            guard let address = addresses[post.handle] else { continue }
            let caption = post.caption
            let texts = [caption.markdown, caption.html, Self.withoutTags(caption.html), post.alt ?? ""]
            guard texts.contains(where: address.isShown(in:)) else { continue }
            problems.append(Diagnostic(
                "this publishes \(address.address), which @\(post.handle)'s `email:` keeps private (there is no `showEmail: true` in their profile): remove it from the caption or alt text, or add `showEmail: true` to the profile to publish it",
                at: location(of: address, in: post.file, site: site)
            ))
        }
        return problems
    }

    /// The address each of `profiles` keeps private (an `email` without `showEmail: true`), by
    /// handle: most profiles have none.
    public static func privateAddresses(of profiles: some Sequence<Profile>) -> [String: PrivateAddress] {
        var addresses: [String: PrivateAddress] = [:]
        for profile in profiles where !profile.showEmail {
            if let email = profile.email { addresses[profile.handle] = PrivateAddress(email) }
        }
        return addresses
    }

    /// `html` without its tags (what is between `<` and `>`).
    private static func withoutTags(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        return text
    }

    /// The first line of `file` that shows `address`, or its first line: read again only for
    /// the error (the post may come from the parsed files' cache).
    private static func location(of address: PrivateAddress, in file: String, site: URL) -> SourceLocation {
        let lines = RegularFile.contents(site.appendingPathComponent(file).path).map { String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        let line = lines.firstIndex { address.isShown(in: String($0)) }.map { $0 + 1 } ?? 1
        return SourceLocation(file: file, line: line, column: 1)
    }
}
