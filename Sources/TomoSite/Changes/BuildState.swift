import Foundation
import TomoCore

/// What a build leaves for the next one in `.tomo-cache/build/`: one digest of the stamps of
/// every input file, a fingerprint of every input key, and the hash and size of every output file. With it a
/// rebuild with nothing changed stops after stamping the inputs, and a rebuild after an edit
/// renders only the files that read what changed and compares them with the kept hashes instead
/// of reading the old output.
///
/// Kept in three files, so the check for "nothing changed" reads only the small one: `state`
/// (text: the inputs' digest, the summary of the last build), `outputs` (binary: the keys and
/// the output hashes, the hashes in the table `OutputDigests` looks paths up in without making a
/// dictionary of them) and `changes` (text: the keys and outputs set or gone since `outputs` was
/// written). An edit changes a few hundred of the hundreds of thousands of entries: a build after
/// one writes only `changes`, and `outputs` is written whole again once the changes have grown
/// (`Changes.isSmall`). Anything unexpected in them (another tomo, another output folder, a
/// damaged entry or line, a checksum that does not match) makes the build a full one; the files
/// are only a cache. `state` ends with a checksum of itself and holds the digests of `outputs` and
/// `changes`, so a damaged byte anywhere is noticed instead of read as a different but
/// well-formed state.
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
    /// `ChangeEngine.pathsDigest` of the build's plan: the paths of `outputs`.
    var planPaths: UInt64?
    var keys: [InputKey: UInt64] = [:]
    var outputs = OutputDigests()
    /// The digest of the `outputs` file as this state was saved with it, checked before it is read.
    var outputsDigest: UInt64 = 0
    /// The digest of the `changes` file saved with this state, nil when there is none.
    var changesDigest: UInt64?
    /// What `changes` holds: `keys` and `outputs` are those of `outputs` with these applied.
    var changes = Changes()

    /// The keys and outputs set (a value) or gone (nil) since the `outputs` file was written.
    struct Changes: Sendable, Equatable {
        var keys: [InputKey: UInt64?] = [:]
        var outputs: [String: FileDigest?] = [:]

        var count: Int { keys.count + outputs.count }

        /// Whether reading them after `outputs` still costs little beside it: one line in fifty
        /// (about forty display-name edits at 10,000 users), or a few thousand on a small site.
        func isSmall(besides entries: Int) -> Bool { count <= max(4_096, entries / 50) }
    }

    /// One folder per output folder (`--out`), so building elsewhere keeps `public/`'s state.
    /// An output inside the site is named by its path in the site: a site folder moved or
    /// renamed keeps its record of the files tomo made (which the marker, moved with it, still
    /// vouches for), so the next build deletes what the site no longer publishes.
    static func folder(site: URL, output: String) -> URL {
        var hasher = StableHasher()
        let sitePath = site.standardizedFileURL.path + "/"
        hasher.add(output.hasPrefix(sitePath) ? "site/" + output.dropFirst(sitePath.count) : output)
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
              let planPaths = lines.popFirst().flatMap({ value($0, after: "plan ") }),
              planPaths == "-" || UInt64(planPaths, radix: 16) != nil,
              let outputsDigest = lines.popFirst().flatMap({ value($0, after: "outputs ") }).flatMap({ UInt64($0, radix: 16) }),
              let changes = lines.popFirst().flatMap({ value($0, after: "changes ") }),
              changes == "-" || UInt64(changes, radix: 16) != nil
        else { return nil }
        var state = BuildState(
            setting: Setting(tool: String(tool), output: String(output), baseURL: String(baseURL), publishing: String(publishing), marker: marker),
            nextChange: Int64(next),
            pages: pages, images: images, files: files, warnings: [], inputs: inputs, planPaths: UInt64(planPaths, radix: 16)
        )
        state.outputsDigest = outputsDigest
        state.changesDigest = UInt64(changes, radix: 16)
        for line in lines where !line.isEmpty {
            guard let warning = value(line, after: "warning ") else { return nil }
            state.warnings.append(String(warning))
        }
        return state
    }

    /// Adds the keys and output hashes, `outputs` and then `changes`; false when a file is
    /// missing, is not the one `state` was written with (by its digest) or does not parse.
    mutating func loadOutputs(site: URL) -> Bool {
        let folder = Self.folder(site: site, output: setting.output)
        guard let bytes = RegularFile.contents(folder.appendingPathComponent("outputs").path),
              Self.digest(bytes) == outputsDigest else { return false }
        var reader = ByteReader(bytes)
        do {
            guard try reader.string() == Self.outputsFormat else { return false }
            let count = try reader.count()
            keys.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = InputKey(storageName: try reader.string()) else { return false }
                keys[key] = try reader.uint64()
            }
        } catch {
            return false
        }
        guard let table = OutputDigests.Table(reading: &reader, in: bytes) else { return false }
        outputs = OutputDigests(table: table)
        guard let changesDigest else { return true }
        guard let changed = RegularFile.contents(folder.appendingPathComponent("changes").path),
              Self.digest(changed) == changesDigest else { return false }
        var recorded = Changes()
        guard apply(changed, recording: &recorded) else { return false }
        changes = recorded
        return true
    }

    /// Applies the lines of a `changes` file to `keys` and `outputs`, and records them:
    /// `k <fingerprint> <key>` and `f <hash> <size> <path>` set one, `-k <key>` and `-f <path>`
    /// say it is gone.
    private mutating func apply(_ bytes: [UInt8], recording recorded: inout Changes) -> Bool {
        LineCursor.forEachLine(of: bytes) { line in
            switch line.word() {
            case "k":
                guard let fingerprint = line.hexadecimal(), let key = InputKey(storageName: line.rest()) else { return false }
                keys[key] = fingerprint
                recorded.keys[key] = fingerprint
            case "f":
                guard let hash = line.hexadecimal(), let size = line.integer() else { return false }
                let path = line.rest()
                outputs[path] = FileDigest(hash: hash, size: Int(size))
                recorded.outputs[path] = FileDigest(hash: hash, size: Int(size))
            case "-k":
                guard let key = InputKey(storageName: line.rest()) else { return false }
                keys[key] = nil
                recorded.keys[key] = .some(nil)
            case "-f":
                let path = line.rest()
                outputs[path] = nil
                recorded.outputs[path] = .some(nil)
            default:
                return false
            }
            return true
        }
    }

    /// The first line of `state`; another one (an older tomo's) means a full build.
    private static let formatLine = "tomo-build-state 5"
    /// The first thing in `outputs`.
    private static let outputsFormat = "tomo-build-outputs 2"
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

    /// Writes `outputs` or `changes`, then `state`, which is what makes them count.
    /// `previous`: the state this one follows, loaded whole, whose `outputs` file is still the
    /// one on disk; `changedKeys` and `changedPaths` then name every key and output file that
    /// may differ from it. While the changes since `outputs` was written stay small, only they
    /// are written; otherwise, and without `previous`, `outputs` is written whole.
    func save(site: URL, since previous: BuildState? = nil, changedKeys: Set<InputKey> = [], changedPaths: [String] = []) {
        // A name with a line break cannot be kept in a line-based file: the next build is full.
        guard !setting.output.utf8.contains(Self.lineBreak) else { return }
        let folder = Self.folder(site: site, output: setting.output)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let previous {
            var changes = previous.changes
            for key in changedKeys { changes.keys[key] = .some(keys[key]) }
            for path in changedPaths { changes.outputs[path] = .some(outputs[path]) }
            if changes.isSmall(besides: keys.count + outputs.count) {
                guard let bytes = Self.bytes(of: changes),
                      RegularFile.replace(folder.appendingPathComponent("changes").path, with: bytes) else { return }
                saveState(in: folder, outputsDigest: previous.outputsDigest, changesDigest: Self.digest(bytes))
                return
            }
        }
        guard let bytes = outputsBytes(),
              RegularFile.replace(folder.appendingPathComponent("outputs").path, with: bytes) else { return }
        saveState(in: folder, outputsDigest: Self.digest(bytes), changesDigest: nil)
    }

    private static let lineBreak = UInt8(ascii: "\n")

    /// The `outputs` file: every key with its fingerprint, then the output digests' table; nil
    /// when an output's path has a line break. The keys are written on another core.
    private func outputsBytes() -> [UInt8]? {
        let keys = keys
        let (keyBytes, outputBytes) = concurrently({
            var writer = ByteWriter(capacity: keys.count * 40)
            writer.write(Self.outputsFormat)
            writer.write(UInt64(keys.count))
            for (key, fingerprint) in keys {
                writer.write(key.storageName)
                writer.write(fingerprint)
            }
            return writer.bytes
        }, { () -> ByteWriter? in
            var writer = ByteWriter()
            return outputs.write(into: &writer) ? writer : nil
        })
        guard let outputBytes else { return nil }
        return keyBytes + outputBytes.bytes
    }

    /// The lines of `changes`, or nil when an output's path has a line break.
    private static func bytes(of changes: Changes) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(changes.count * 80)
        for (key, fingerprint) in changes.keys {
            if let fingerprint {
                appendLine(key, fingerprint, to: &bytes)
            } else {
                bytes.append(contentsOf: "-k \(key.storageName)\n".utf8)
            }
        }
        for (path, digest) in changes.outputs {
            if let digest {
                guard appendLine(path, digest, to: &bytes) else { return nil }
            } else {
                guard !path.utf8.contains(lineBreak) else { return nil }
                bytes.append(contentsOf: "-f \(path)\n".utf8)
            }
        }
        return bytes
    }

    private static func appendLine(_ key: InputKey, _ fingerprint: UInt64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "k ".utf8)
        appendHexadecimal(fingerprint, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: key.storageName.utf8)
        bytes.append(lineBreak)
    }

    /// False when `path` has a line break.
    private static func appendLine(_ path: String, _ digest: FileDigest, to bytes: inout [UInt8]) -> Bool {
        bytes.append(contentsOf: "f ".utf8)
        appendHexadecimal(digest.hash, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendDecimal(digest.size, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        let pathStart = bytes.count
        bytes.append(contentsOf: path.utf8)
        // Looked for in the bytes just appended, not in a pass of its own over every path.
        guard !bytes[pathStart...].contains(lineBreak) else { return false }
        bytes.append(lineBreak)
        return true
    }

    /// Writes `state`, naming the digests of the `outputs` and `changes` files it goes with.
    private func saveState(in folder: URL, outputsDigest: UInt64, changesDigest: UInt64?) {
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
        plan \(planPaths.map { String($0, radix: 16) } ?? "-")
        outputs \(String(outputsDigest, radix: 16))
        changes \(changesDigest.map { String($0, radix: 16) } ?? "-")

        """
        for warning in warnings {
            stateText += "warning \(warning.utf8.contains(Self.lineBreak) ? warning.replacingOccurrences(of: "\n", with: " ") : warning)\n"
        }
        var stateBytes = Array(stateText.utf8)
        stateBytes += Array("\(Self.checksumPrefix)\(String(Self.digest(stateBytes), radix: 16))\n".utf8)
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
