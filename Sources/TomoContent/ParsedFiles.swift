import Foundation
import Synchronization
import TomoCore

/// The profiles and posts the last load parsed, kept in `.tomo-cache/content` so that a new
/// process reads only the files that changed: each one with the stamp of its file and of every
/// image it checked (`NodeReader.checkedFiles`), and the warnings it gave. A kept one is used
/// only while all of those stamps are the ones the build took now; files with an error, and
/// files that name an image by a path with `.`, `..` or a link on the way, are never kept
/// (they are parsed every time). The cache belongs to one tomo binary and ends with a checksum:
/// another tomo's, or a damaged one, is ignored, and everything is parsed.
public final class ParsedFiles: Sendable {
    enum Parsed: Sendable {
        case profile(Profile)
        case post(Post)
    }

    struct Entry: Sendable {
        var stamp: FileStamp
        /// The images it checked (relative to the site folder) and their stamps then.
        var checked: [(path: String, stamp: FileStamp)]
        var warnings: [Diagnostic]
        var parsed: Parsed
    }

    private let site: URL
    /// `site.path` and a slash: what the absolute paths of checked images start with.
    private let sitePrefix: String
    private let tool: String
    private let stamps: [String: FileStamp]
    private let kept: [String: Entry]
    /// What this load used or parsed: what the next one may use.
    private let current = Mutex<[String: Entry]>([:])
    /// How many files this load parsed that the cache did not hold as they are now.
    private let parsedAnew = Mutex(0)

    /// The kept entries of `site`, checked against `stamps` (by path relative to the site
    /// folder, as `tomo build` takes them before loading). `tool` names the binary. Without
    /// `readingKept`, nothing kept is used (everything is parsed, and kept anew).
    public init(site: URL, stamps: [String: FileStamp], tool: String, readingKept: Bool = true) {
        self.site = site
        sitePrefix = site.path + "/"
        self.tool = tool
        self.stamps = stamps
        kept = readingKept ? RegularFile.contents(Self.file(site: site).path).flatMap { Self.entries(from: $0, tool: tool) } ?? [:] : [:]
    }

    static func file(site: URL) -> URL { site.appendingPathComponent(".tomo-cache/content") }

    /// How many profiles and posts this load parsed that were not kept as they are now.
    var parsedAnewCount: Int { parsedAnew.withLock { $0 } }

    /// The profile or post parsed from `file` when nothing it read changed since.
    func parsed(_ file: String) -> (Parsed, [Diagnostic])? {
        guard let entry = kept[file], stamps[file] == entry.stamp,
              entry.checked.allSatisfy({ stamps[$0.path] == $0.stamp }) else { return nil }
        current.withLock { $0[file] = entry }
        return (entry.parsed, entry.warnings)
    }

    /// Keeps what parsing `file` gave, unless it had an error or checked an image the cache
    /// cannot vouch for (`checked` nil).
    func remember(_ parsed: Parsed, of file: String, diagnostics: [Diagnostic], checked: [String]?) {
        guard let stamp = stamps[file], let checked, !diagnostics.contains(where: { $0.severity == .error }) else { return }
        var checkedStamps: [(path: String, stamp: FileStamp)] = []
        for path in checked {
            let relative = String(path.dropFirst(sitePrefix.count))
            guard path.hasPrefix(sitePrefix), let stamp = stamps[relative] else { return }
            checkedStamps.append((relative, stamp))
        }
        let entry = Entry(stamp: stamp, checked: checkedStamps, warnings: diagnostics, parsed: parsed)
        current.withLock { $0[file] = entry }
        parsedAnew.withLock { $0 += 1 }
    }

    /// Writes what this load used and parsed, when it differs enough from what was kept; the
    /// old cache is replaced in one rename. A site of 100,000 posts keeps about 90 MB: rewriting
    /// it after each edit would cost more than parsing the edited files again, so it waits until
    /// one file in a hundred is parsed anew or gone. A cache that cannot be written only costs
    /// the next load time.
    public func save() {
        let entries = current.withLock { $0 }
        let used = entries.count - parsedAnewCount
        let outdated = parsedAnewCount + (kept.count - used)
        guard outdated > 0, kept.isEmpty || outdated > max(16, entries.count / 100) else { return }
        var writer = ByteWriter(capacity: entries.count * 400)
        writer.write(Self.format)
        writer.write(tool)
        writer.write(UInt64(entries.count))
        for (file, entry) in entries {
            writer.write(file)
            writer.write(entry.stamp)
            writer.write(entry.checked) { writer, checked in
                writer.write(checked.path)
                writer.write(checked.stamp)
            }
            writer.write(entry.warnings) { $0.write($1) }
            switch entry.parsed {
            case .profile(let profile):
                writer.write(UInt8(0))
                writer.write(profile)
            case .post(let post):
                writer.write(UInt8(1))
                writer.write(post)
            }
        }
        let target = Self.file(site: site)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = RegularFile.replace(target.path, with: writer.sealed)
    }

    /// The first thing in the file; another one (an older tomo's) is ignored.
    private static let format = "tomo-parsed-files 1"

    private static func entries(from bytes: [UInt8], tool: String) -> [String: Entry]? {
        guard var reader = ByteReader(sealed: bytes) else { return nil }
        do {
            guard try reader.string() == format, try reader.string() == tool else { return nil }
            let count = try reader.count()
            var entries: [String: Entry] = [:]
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let file = try reader.string()
                let stamp = try reader.stamp()
                let checked = try reader.array { reader throws(ByteReader.Malformed) in (path: try reader.string(), stamp: try reader.stamp()) }
                let warnings = try reader.array { reader throws(ByteReader.Malformed) in try reader.diagnostic() }
                let parsed: Parsed
                switch try reader.byte() {
                case 0: parsed = .profile(try reader.profile())
                case 1: parsed = .post(try reader.post())
                default: throw ByteReader.Malformed()
                }
                entries[file] = Entry(stamp: stamp, checked: checked, warnings: warnings, parsed: parsed)
            }
            return reader.isAtEnd ? entries : nil
        } catch {
            return nil
        }
    }
}
