import TomoContent
import TomoCore

/// `/sitemap.xml` by the sitemaps.org protocol: the home page, every profile, every free page
/// and every published post (newest first, each with its date as `<lastmod>`), by absolute URL.
/// A file holds at most 50,000 URLs and 50 MB; a larger site gets `/sitemap-1.xml`,
/// `/sitemap-2.xml`… and `/sitemap.xml` becomes the index listing them. Plan and bytes side by
/// side.
enum Sitemap {
    struct Limit: Sendable {
        var urls: Int
        var bytes: Int

        /// The protocol's limits.
        static let protocolLimit = Limit(urls: 50_000, bytes: 50 * 1024 * 1024)
    }

    /// One `<url>`: its path in the site and, for a post, its date.
    struct Entry: Sendable {
        var path: String
        var lastmod: String?
    }

    /// A sitemap lists every post newest first, so a post's new date moves it.
    static let inputs: [InputKey] = [.site, .pageList, .siteShape, .anyPost]

    static func plan(_ model: SiteModel, into files: inout [PlannedFile]) {
        let content = model.content
        let count = 1 + content.profiles.count + content.pages.count + content.posts.count
        // The parts are known from the count and the longest path alone when a part full of
        // the longest lines is still within the byte limit (every site but one with very long
        // handles or slugs); otherwise the entries are written out here to be measured (and
        // again when its files are made).
        var longestPath = 0
        for profile in content.profiles { longestPath = max(longestPath, profile.handle.utf8.count + 1) }
        for page in content.pages { longestPath = max(longestPath, page.name.utf8.count + 1) }
        for post in content.posts { longestPath = max(longestPath, post.handle.utf8.count + post.slug.utf8.count + 8) }
        let limit = model.sitemapLimit
        let layout = self.layout(count: count, longestLine: longestLine(path: longestPath, address: model.address), limit: limit)
            ?? self.layout(of: entries(handles: content.profiles.map(\.handle), pages: content.pages.map(\.name), posts: model.posts.newestFirst), address: model.address, limit: limit)
        for (path, range) in layout {
            // The plan is made again whenever the entries may differ, so the ranges hold.
            files.append(PlannedFile(path: path, inputs: inputs, source: .bytes { views in
                guard let range else { return index(count: layout.count - 1, address: views.address) }
                let entries = self.entries(handles: views.handles, pages: views.pageNames, posts: views.newestPosts)
                return urlset(entries[range.clamped(to: entries.indices)], address: views.address)
            }))
        }
    }

    /// Every URL of the sitemap, in order.
    static func entries(handles: [String], pages: [String], posts: [Post]) -> [Entry] {
        [Entry(path: "", lastmod: nil)]
            + handles.map { Entry(path: $0 + "/", lastmod: nil) }
            + pages.map { Entry(path: $0 + "/", lastmod: nil) }
            + posts.map { Entry(path: "\($0.handle)/posts/\($0.slug)/", lastmod: PostDates.rfc3339(of: $0)) }
    }

    /// The sitemap files and the entries each holds: `sitemap.xml` with all of them when they fit
    /// in one file; otherwise `sitemap.xml` as the index (no range) and `sitemap-N.xml` for each part.
    static func layout(of entries: [Entry], address: SiteAddress, limit: Limit) -> [(path: String, range: Range<Int>?)] {
        let parts = ranges(entries, address: address, limit: limit)
        guard parts.count > 1 else { return [("sitemap.xml", entries.indices)] }
        return [("sitemap.xml", nil)] + parts.enumerated().map { ("sitemap-\($0.offset + 1).xml", $0.element) }
    }

    /// The layout `layout(of:address:limit:)` finds for `count` entries none of whose lines is
    /// longer than `longestLine` bytes, without measuring them: parts of `limit.urls` entries,
    /// when that many of the longest lines fit in `limit.bytes` (one file when all of them do). Nil
    /// when a part may not.
    static func layout(count: Int, longestLine: Int, limit: Limit) -> [(path: String, range: Range<Int>?)]? {
        let room = limit.bytes - header.utf8.count - footer.utf8.count
        func fits(_ lines: Int) -> Bool {
            let (bytes, overflow) = lines.multipliedReportingOverflow(by: longestLine)
            return !overflow && bytes <= room
        }
        if count <= limit.urls, fits(count) { return [("sitemap.xml", 0..<count)] }
        guard limit.urls > 0, fits(limit.urls) else { return nil }
        let parts = stride(from: 0, to: count, by: limit.urls).map { $0..<min($0 + limit.urls, count) }
        return [("sitemap.xml", nil)] + parts.enumerated().map { ("sitemap-\($0.offset + 1).xml", $0.element) }
    }

    /// An upper bound of a line's bytes for a path (after the base URL's) of `path` bytes:
    /// escaping makes a character at most 6 bytes; the tags and a date take under 100.
    static func longestLine(path: Int, address: SiteAddress) -> Int {
        100 + 6 * (address.baseURL.utf8.count + path)
    }

    /// Consecutive parts of `entries`, each within `limit` once written.
    static func ranges(_ entries: [Entry], address: SiteAddress, limit: Limit) -> [Range<Int>] {
        let frame = header.utf8.count + footer.utf8.count
        var parts: [Range<Int>] = []
        var start = 0
        var bytes = frame
        for (index, entry) in entries.enumerated() {
            let size = line(entry, address: address).utf8.count
            if index > start, index - start >= limit.urls || bytes + size > limit.bytes {
                parts.append(start..<index)
                start = index
                bytes = frame
            }
            bytes += size
        }
        parts.append(start..<entries.count)
        return parts
    }

    private static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    private static let footer = "</urlset>\n"

    private static func line(_ entry: Entry, address: SiteAddress) -> String {
        let lastmod = entry.lastmod.map { "<lastmod>\($0)</lastmod>" } ?? ""
        return "  <url><loc>\(MarkupText.escaped(address.absolute(entry.path)))</loc>\(lastmod)</url>\n"
    }

    static func urlset(_ entries: ArraySlice<Entry>, address: SiteAddress) -> [UInt8] {
        var xml = header
        for entry in entries { xml += line(entry, address: address) }
        return Array((xml + footer).utf8)
    }

    /// The index of `count` sitemap files.
    static func index(count: Int, address: SiteAddress) -> [UInt8] {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for number in stride(from: 1, through: count, by: 1) {
            xml += "  <sitemap><loc>\(MarkupText.escaped(address.absolute("sitemap-\(number).xml")))</loc></sitemap>\n"
        }
        return Array((xml + "</sitemapindex>\n").utf8)
    }
}
