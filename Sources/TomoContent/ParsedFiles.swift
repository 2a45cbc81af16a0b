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
    /// The cache file as it was read. An entry is decoded only when its file is asked for, on
    /// the core that asks: a load reads its 100,000 posts on every core, where decoding them
    /// all first took a third of a second on one.
    private let keptBytes: [UInt8]
    /// Each kept entry's number (in `used`) and where its bytes are in `keptBytes`.
    private let kept: [String: (number: Int, bytes: Range<Int>)]
    /// Which kept entries this load used.
    private let used: Mutex<[Bool]>
    /// What this load parsed anew: with the kept entries it used, what the next load may use.
    private let parsedAnew = Mutex<[String: Entry]>([:])

    /// The kept entries of `site`, checked against `stamps` (by path relative to the site
    /// folder, as `tomo build` takes them before loading). `tool` names the binary. Without
    /// `readingKept`, nothing kept is used (everything is parsed, and kept anew).
    public init(site: URL, stamps: [String: FileStamp], tool: String, readingKept: Bool = true) {
        self.site = site
        sitePrefix = site.path + "/"
        self.tool = tool
        self.stamps = stamps
        let bytes = readingKept ? RegularFile.contents(Self.file(site: site).path) ?? [] : []
        let kept = Self.entries(in: bytes, tool: tool) ?? [:]
        keptBytes = kept.isEmpty ? [] : bytes
        self.kept = kept
        used = Mutex([Bool](repeating: false, count: kept.count))
    }

    static func file(site: URL) -> URL { site.appendingPathComponent(".tomo-cache/content") }

    /// How many profiles and posts this load parsed that were not kept as they are now.
    var parsedAnewCount: Int { parsedAnew.withLock { $0.count } }

    /// The profile or post parsed from `file` when nothing it read changed since.
    func parsed(_ file: String) -> (Parsed, [Diagnostic])? {
        guard let (number, bytes) = kept[file], let entry = Self.entry(in: keptBytes, at: bytes), stamps[file] == entry.stamp,
              entry.checked.allSatisfy({ stamps[$0.path] == $0.stamp }) else { return nil }
        used.withLock { $0[number] = true }
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
        parsedAnew.withLock { $0[file] = entry }
    }

    /// Writes what this load used and parsed, when it differs enough from what was kept; the
    /// old cache is replaced in one rename. A site of 100,000 posts keeps about 90 MB: rewriting
    /// it after each edit would cost more than parsing the edited files again, so it waits until
    /// one file in a hundred is parsed anew or gone. A cache that cannot be written only costs
    /// the next load time. The kept entries used are copied as they were read.
    public func save() {
        let anew = parsedAnew.withLock { $0 }
        let usedFlags = used.withLock { $0 }
        // A file parsed anew was not used from the cache: the two never overlap.
        let usedCount = usedFlags.count { $0 }
        let outdated = anew.count + (kept.count - usedCount)
        guard outdated > 0, kept.isEmpty || outdated > max(16, (usedCount + anew.count) / 100) else { return }
        let usedKept = kept.filter { usedFlags[$0.value.number] }
        var writer = ByteWriter(capacity: keptBytes.count + anew.count * 400)
        writer.write(Self.format)
        writer.write(tool)
        writer.write(UInt64(usedKept.count + anew.count))
        for (file, entry) in usedKept {
            writer.write(file)
            writer.write(UInt64(entry.bytes.count))
            writer.append(keptBytes[entry.bytes])
        }
        for (file, entry) in anew {
            var payload = ByteWriter(capacity: 400)
            payload.write(entry.stamp)
            payload.write(entry.checked) { writer, checked in
                writer.write(checked.path)
                writer.write(checked.stamp)
            }
            payload.write(entry.warnings) { $0.write($1) }
            switch entry.parsed {
            case .profile(let profile):
                payload.write(UInt8(0))
                payload.write(profile)
            case .post(let post):
                payload.write(UInt8(1))
                payload.write(post)
            }
            writer.write(file)
            writer.write(UInt64(payload.bytes.count))
            writer.append(payload.bytes)
        }
        let target = Self.file(site: site)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = RegularFile.replace(target.path, with: writer.sealed)
    }

    /// The first thing in the file; another one (an older tomo's) is ignored.
    private static let format = "tomo-parsed-files 2"

    /// Where each entry of the cache file is (each one a file name, the length of the rest and
    /// the rest), or nil when it is another tool's, damaged or cut short.
    private static func entries(in bytes: [UInt8], tool: String) -> [String: (number: Int, bytes: Range<Int>)]? {
        guard var reader = ByteReader(sealed: bytes) else { return nil }
        do {
            guard try reader.string() == format, try reader.string() == tool else { return nil }
            let count = try reader.count()
            var entries: [String: (number: Int, bytes: Range<Int>)] = [:]
            entries.reserveCapacity(count)
            for number in 0..<count {
                let file = try reader.string()
                let length = try reader.count()
                entries[file] = (number, reader.offset..<reader.offset + length)
                try reader.skip(length)
            }
            return reader.isAtEnd ? entries : nil
        } catch {
            return nil
        }
    }

    /// The entry at `range` of `bytes`, or nil when it does not read back whole.
    private static func entry(in bytes: [UInt8], at range: Range<Int>) -> Entry? {
        var reader = ByteReader(bytes, in: range)
        do {
            let stamp = try reader.stamp()
            let checked = try reader.array { reader throws(ByteReader.Malformed) in (path: try reader.string(), stamp: try reader.stamp()) }
            let warnings = try reader.array { reader throws(ByteReader.Malformed) in try reader.diagnostic() }
            let parsed: Parsed
            switch try reader.byte() {
            case 0: parsed = .profile(try reader.profile())
            case 1: parsed = .post(try reader.post())
            default: return nil
            }
            return reader.isAtEnd ? Entry(stamp: stamp, checked: checked, warnings: warnings, parsed: parsed) : nil
        } catch {
            return nil
        }
    }
}
