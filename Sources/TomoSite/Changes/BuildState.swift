import Foundation
import TomoCore

/// What a build leaves for the next one in `.tomo-cache/build/`: one digest of the stamps of
/// every input file, a fingerprint of every input key, and the hash and size of every output file. With it a
/// rebuild with nothing changed stops after stamping the inputs, and a rebuild after an edit
/// renders only the files that read what changed and compares them with the kept hashes instead
/// of reading the old output.
///
/// Kept in two text files, so the check for "nothing changed" reads only the small one:
/// `state` (the inputs' digest, the summary of the last build) and `outputs` (keys and output
/// hashes).
/// Anything unexpected in them (another tomo, another output folder, a damaged line, a checksum
/// that does not match) makes the build a full one; the files are only a cache. `state` ends with
/// a checksum of itself and holds the digest of `outputs`, so a damaged byte anywhere is noticed
/// instead of read as a different but well-formed state.
struct BuildState: Sendable {
    /// What must be the same for the kept state to describe this build.
    struct Setting: Sendable, Equatable {
        /// The tomo binary (its built-in theme and code), by stamp.
        var tool: String
        var output: String
        var baseURL: String
        /// What the build publishes besides the default: `drafts`, `future`, both or nothing.
        var publishing: String
        /// The output folder's marker file (`markerIdentity`): a deleted or replaced output is rebuilt.
        var marker: UInt64
    }

    var setting: Setting
    /// The first moment after the build at which an item appears or disappears (`from`/`until`):
    /// a build at or after it renders every profile again. Nanoseconds since 1970.
    var nextChange: Int64?
    var pages: Int
    var images: Int
    /// Every file of the output.
    var files: Int
    var warnings: [String]
    /// `InputStamps.digest` of the files the build read.
    var inputs: UInt64
    var keys: [InputKey: UInt64] = [:]
    var outputs: [String: FileDigest] = [:]
    /// The digest of the `outputs` file as this state was saved with it, checked before it is read.
    var outputsDigest: UInt64 = 0

    /// One folder per output folder (`--out`), so building elsewhere keeps `public/`'s state.
    static func folder(site: URL, output: String) -> URL {
        var hasher = StableHasher()
        hasher.add(output)
        let name = String(hasher.value, radix: 16)
        return site.appendingPathComponent(".tomo-cache/build/" + String(repeating: "0", count: 16 - name.count) + name)
    }

    /// The stamp of the running binary: a new tomo renders everything again.
    static var toolIdentity: String {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return "unknown" }
        return "\(status.st_size)-\(status.st_ino)-\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// Who the marker in `output` is: its inode and change time, so a marker made anew is another
    /// one even when it reuses the inode number of one deleted a moment before (tomo never
    /// rewrites it); nil when the output or its marker is gone.
    static func markerIdentity(output: URL) -> UInt64? {
        var status = stat()
        guard lstat(output.appendingPathComponent(OutputLock.markerName).path, &status) == 0 else { return nil }
        var hasher = StableHasher()
        for part in [UInt64(status.st_dev), UInt64(status.st_ino), UInt64(bitPattern: Int64(status.st_ctim.tv_sec)), UInt64(bitPattern: Int64(status.st_ctim.tv_nsec))] {
            hasher.add(part)
        }
        return hasher.value
    }

    // MARK: Reading

    /// The kept state's first file (no keys or outputs yet), or nil when there is none, it does
    /// not parse or its checksum does not match (a damaged or truncated file).
    static func loadSummary(site: URL, output: String) -> BuildState? {
        guard let bytes = RegularFile.contents(folder(site: site, output: output).appendingPathComponent("state").path),
              let text = checkedText(bytes) else { return nil }
        // Split on the bytes, not by characters: a build that finds nothing changed reads this
        // and stops, and a large site's state holds thousands of warnings.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Substring.init)[...]
        guard lines.popFirst() == Substring(formatLine),
              let tool = lines.popFirst().flatMap({ value($0, after: "tool ") }),
              let output = lines.popFirst().flatMap({ value($0, after: "output ") }),
              let baseURL = lines.popFirst().flatMap({ value($0, after: "base ") }),
              let publishing = lines.popFirst().flatMap({ value($0, after: "publish ") }),
              let marker = lines.popFirst().flatMap({ value($0, after: "marker ") }).flatMap({ UInt64($0) }),
              let next = lines.popFirst().flatMap({ value($0, after: "next ") }),
              next == "-" || Int64(next) != nil,
              let pages = lines.popFirst().flatMap({ value($0, after: "pages ") }).flatMap({ Int($0) }),
              let images = lines.popFirst().flatMap({ value($0, after: "images ") }).flatMap({ Int($0) }),
              let files = lines.popFirst().flatMap({ value($0, after: "files ") }).flatMap({ Int($0) }),
              let inputs = lines.popFirst().flatMap({ value($0, after: "inputs ") }).flatMap({ UInt64($0, radix: 16) }),
              let outputsDigest = lines.popFirst().flatMap({ value($0, after: "outputs ") }).flatMap({ UInt64($0, radix: 16) })
        else { return nil }
        var state = BuildState(
            setting: Setting(tool: String(tool), output: String(output), baseURL: String(baseURL), publishing: String(publishing), marker: marker),
            nextChange: Int64(next),
            pages: pages, images: images, files: files, warnings: [], inputs: inputs
        )
        state.outputsDigest = outputsDigest
        for line in lines where !line.isEmpty {
            guard let warning = value(line, after: "warning ") else { return nil }
            state.warnings.append(String(warning))
        }
        return state
    }

    /// Adds the keys and output hashes; false when the file is missing, is not the one `state`
    /// was written with (by its digest) or has a line that does not parse.
    mutating func loadOutputs(site: URL) -> Bool {
        guard let bytes = RegularFile.contents(Self.folder(site: site, output: setting.output).appendingPathComponent("outputs").path),
              Self.digest(bytes) == outputsDigest else { return false }
        keys.reserveCapacity(bytes.count / 64)
        outputs.reserveCapacity(bytes.count / 64)
        return LineCursor.forEachLine(of: bytes) { line in
            switch line.word() {
            case "k":
                guard let fingerprint = line.hexadecimal(), let key = InputKey(storageName: line.rest()) else { return false }
                keys[key] = fingerprint
            case "f":
                guard let hash = line.hexadecimal(), let size = line.integer() else { return false }
                outputs[line.rest()] = FileDigest(hash: hash, size: Int(size))
            default:
                return false
            }
            return true
        }
    }

    /// The first line of `state`; another one (an older tomo's) means a full build.
    private static let formatLine = "tomo-build-state 3"
    /// The last line of `state`: `sum ` and the digest of everything before it.
    static let checksumPrefix = "sum "

    /// The text of `state` without its checksum line, when the checksum matches.
    static func checkedText(_ bytes: [UInt8]) -> String? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        let body = bytes.dropLast()
        let lineStart = body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        let checksumLine = String(decoding: body[lineStart...], as: UTF8.self)
        guard checksumLine.hasPrefix(checksumPrefix),
              let checksum = UInt64(checksumLine.dropFirst(checksumPrefix.count), radix: 16),
              checksum == digest(Array(bytes[..<lineStart])) else { return nil }
        return String(validating: bytes[..<lineStart], as: UTF8.self)
    }

    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hasher = StableHasher()
        hasher.add(bytes: bytes)
        return hasher.value
    }

    private static func value(_ line: Substring, after prefix: String) -> Substring? {
        line.hasPrefix(prefix) ? line.dropFirst(prefix.count) : nil
    }

    // MARK: Writing

    /// Forgets the kept state (before an output changes, so a build killed halfway is followed
    /// by a full one).
    static func remove(site: URL, output: String) {
        unlink(folder(site: site, output: output).appendingPathComponent("state").path)
    }

    /// Writes both files, `outputs` first: `state` is what makes them count.
    func save(site: URL) {
        // A name with a line break cannot be kept in a line-based file: the next build is full.
        let lineBreak = UInt8(ascii: "\n")
        guard !setting.output.utf8.contains(lineBreak) else { return }
        let folder = Self.folder(site: site, output: setting.output)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        // Written byte by byte: there is a line per output file, hundreds of thousands of
        // them, put together in halves on two cores (the keys with the first).
        let middle = outputs.index(outputs.startIndex, offsetBy: outputs.count / 2)
        let ranges: [(withKeys: Bool, half: Range<[String: FileDigest].Index>)] = [(true, outputs.startIndex..<middle), (false, middle..<outputs.endIndex)]
        var halves = ranges.concurrentMap { withKeys, half -> [UInt8]? in
            var bytes: [UInt8] = []
            // The first half is made big enough to take the second one after it.
            bytes.reserveCapacity(outputs.count * (withKeys ? 80 : 40) + (withKeys ? keys.count * 40 : 0))
            for (key, fingerprint) in withKeys ? keys : [:] {
                bytes.append(contentsOf: "k ".utf8)
                Self.appendHexadecimal(fingerprint, to: &bytes)
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: key.storageName.utf8)
                bytes.append(UInt8(ascii: "\n"))
            }
            for (path, digest) in outputs[half] {
                bytes.append(contentsOf: "f ".utf8)
                Self.appendHexadecimal(digest.hash, to: &bytes)
                bytes.append(UInt8(ascii: " "))
                Self.appendDecimal(digest.size, to: &bytes)
                bytes.append(UInt8(ascii: " "))
                let pathStart = bytes.count
                bytes.append(contentsOf: path.utf8)
                // Looked for in the bytes just appended, not in a pass of its own over every path.
                guard !bytes[pathStart...].contains(lineBreak) else { return nil }
                bytes.append(lineBreak)
            }
            return bytes
        }
        // Taken out of the array, so that the first half is appended to in place.
        guard case let (second??, first??) = (halves.popLast(), halves.popLast()) else { return }
        var outputsBytes = first
        outputsBytes.append(contentsOf: second)
        var stateText = """
        \(Self.formatLine)
        tool \(setting.tool)
        output \(setting.output)
        base \(setting.baseURL)
        publish \(setting.publishing)
        marker \(setting.marker)
        next \(nextChange.map(String.init) ?? "-")
        pages \(pages)
        images \(images)
        files \(files)
        inputs \(String(inputs, radix: 16))
        outputs \(String(Self.digest(outputsBytes), radix: 16))

        """
        for warning in warnings {
            stateText += "warning \(warning.utf8.contains(lineBreak) ? warning.replacingOccurrences(of: "\n", with: " ") : warning)\n"
        }
        var stateBytes = Array(stateText.utf8)
        stateBytes += Array("\(Self.checksumPrefix)\(String(Self.digest(stateBytes), radix: 16))\n".utf8)
        guard RegularFile.replace(folder.appendingPathComponent("outputs").path, with: outputsBytes) else { return }
        _ = RegularFile.replace(folder.appendingPathComponent("state").path, with: stateBytes)
    }

    private static let hexadecimalDigits = Array("0123456789abcdef".utf8)

    private static func appendHexadecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        let digits = hexadecimalDigits
        var shift = 60
        while shift > 0, (value >> UInt64(shift)) & 0xf == 0 { shift -= 4 }
        while shift >= 0 {
            bytes.append(digits[Int((value >> UInt64(shift)) & 0xf)])
            shift -= 4
        }
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Lowest digit first, then turned round in place.
        let start = bytes.count
        repeat {
            bytes.append(UInt8(48 + magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

}

/// An output file's bytes, as far as telling versions apart needs.
struct FileDigest: Sendable, Hashable {
    var hash: UInt64
    var size: Int

    init(hash: UInt64, size: Int) {
        self.hash = hash
        self.size = size
    }

    init(of bytes: [UInt8]) {
        var hasher = StableHasher()
        hasher.add(bytes: bytes)
        self.init(hash: hasher.value, size: bytes.count)
    }

    /// A published file named by its content (a cached thumbnail): its source path says it all.
    init(linkedFrom source: String) {
        var hasher = StableHasher()
        hasher.add(source)
        self.init(hash: hasher.value, size: -1)
    }
}

extension InputKey {
    /// How the key is written in the kept state: no spaces before the last part, no line breaks.
    var storageName: String {
        switch self {
        case .site: "site"
        case .theme: "theme"
        case .pageList: "pageList"
        case .anyCard: "anyCard"
        case .anyPost: "anyPost"
        case .anyPostStats: "anyPostStats"
        case .userOrder: "userOrder"
        case .siteShape: "siteShape"
        case .redirects: "redirects"
        case .staticFile(let path): "static:" + path
        case .rootFile(let path): "root:" + path
        case .page(let name): "page:" + name
        case .profile(let handle): "profile:" + handle
        case .contactCard(let handle): "contactCard:" + handle
        case .card(let handle): "card:" + handle
        case .post(let id): "post:" + id
        case .postsOf(let handle): "posts:" + handle
        case .followers(let handle): "followers:" + handle
        case .following(let handle): "following:" + handle
        case .timeline(let handle): "timeline:" + handle
        case .postStats(let handle): "postStats:" + handle
        case .registration(let handle): "registration:" + handle
        }
    }

    init?(storageName: String) {
        switch storageName {
        case "site": self = .site
        case "theme": self = .theme
        case "pageList": self = .pageList
        case "anyCard": self = .anyCard
        case "anyPost": self = .anyPost
        case "anyPostStats": self = .anyPostStats
        case "userOrder": self = .userOrder
        case "siteShape": self = .siteShape
        case "redirects": self = .redirects
        default:
            guard let colon = storageName.firstIndex(of: ":") else { return nil }
            let value = String(storageName[storageName.index(after: colon)...])
            switch storageName[..<colon] {
            case "static": self = .staticFile(value)
            case "root": self = .rootFile(value)
            case "page": self = .page(value)
            case "profile": self = .profile(value)
            case "contactCard": self = .contactCard(value)
            case "card": self = .card(value)
            case "post": self = .post(value)
            case "posts": self = .postsOf(value)
            case "followers": self = .followers(value)
            case "following": self = .following(value)
            case "timeline": self = .timeline(value)
            case "postStats": self = .postStats(value)
            case "registration": self = .registration(value)
            default: return nil
            }
        }
    }
}
