import Foundation
import TomoCore

/// A user's profile page content, from `content/users/<handle>.yaml` (or `.json`).
public struct Profile: Sendable, Hashable {
    public var handle: String
    /// The file it came from, relative to the site folder (`content/users/alice.yaml`).
    public var file: String
    public var name: String
    /// The bio as written (Markdown), its HTML (raw HTML and unsafe links removed) and its
    /// first line as plain text (for cards); nil without a bio.
    public var bio: Bio?
    /// Image paths relative to `content/users/`; the files exist and stay inside that folder.
    public var icon: String?
    public var header: String?
    /// Known services only, in the design's service order.
    public var links: [ProfileLink]
    /// Every item in file order, hidden and dated ones included: ask `isShown(at:)`.
    public var items: [ProfileItem]
    public var itemColor: ItemColor
    /// Private unless `showEmail`; the page must not print it otherwise.
    public var email: String?
    public var showEmail: Bool

    /// The e-mail address the page may print: only with `showEmail: true`.
    public var publicEmail: String? { showEmail ? email : nil }

    public struct Bio: Sendable, Hashable {
        public var markdown: String
        public var html: String
        public var firstLine: String
    }
}

/// A link to one of the known services.
public struct ProfileLink: Sendable, Hashable {
    public var service: LinkService
    /// http, https or mailto.
    public var url: String
}

/// A POMU.ME item: a comment, or a link when `url` is set.
public struct ProfileItem: Sendable, Hashable {
    public var text: String
    public var url: String?
    /// The item's own colour, or the profile's `itemColor`.
    public var color: ItemColor
    public var hidden: Bool
    /// Shown from this instant on (inclusive).
    public var from: Date?
    /// Shown until just before this instant (a date's whole day is included).
    public var until: Date?

    /// Whether a page built at `date` shows this item.
    public func isShown(at date: Date) -> Bool {
        if hidden { return false }
        if let from, date < from { return false }
        if let until, date >= until { return false }
        return true
    }
}
