import Foundation
import TomoCore
import TomoYAML

/// A profile file's text as the commands that change it see it (`tomo user add|set|rename`):
/// its values are read and replaced where the parser found them, so comments, key order and
/// spacing stay as the person wrote them, and a value is found by what it is, however it is
/// written (plain, quoted, `./`-prefixed, YAML or JSON). Every change is proved by reading the
/// result back: the same document with only that value changed, or the change is refused.
public struct ProfileFile: Sendable {
    /// `content/users/<handle>.yaml` or `.json`, relative to the site.
    public let file: String
    public private(set) var bytes: [UInt8]
    private var root: YAMLNode

    /// The keys whose values are image paths relative to `content/users/`.
    public static let imageKeys = ["icon", "header"]

    public init(bytes: [UInt8], file: String) throws(DiagnosticList) {
        self.file = file
        self.bytes = bytes
        root = try Self.parse(bytes, file: file)
    }

    /// The profile of `handle` in `site`, or nil when it has none.
    public static func read(site: URL, handle: String) throws(DiagnosticList) -> ProfileFile? {
        for format in ["yaml", "json"] {
            let file = ContentPath.profileFile(handle, format: format)
            switch RegularFile.read(site.appendingPathComponent(file).path) {
            case .success(let bytes): return try ProfileFile(bytes: bytes, file: file)
            case .failure(.missing): continue
            case .failure(let failure):
                throw DiagnosticList([Diagnostic("cannot read \(file): \(failure.reason)", at: SourceLocation(file: file, line: 1, column: 1))])
            }
        }
        return nil
    }

    private var isJSON: Bool { file.hasSuffix(".json") }

    private static func parse(_ bytes: [UInt8], file: String) throws(DiagnosticList) -> YAMLNode {
        file.hasSuffix(".json") ? try JSONProfileNodes.parse(bytes, file: file) : try YAMLParser.parse(bytes, file: file)
    }

    /// The text of a top-level value, as the content loader reads it (nil when missing, empty or
    /// not a single value).
    public func value(_ key: String) -> String? {
        guard let node = root.mapping?.first(where: { $0.key == key })?.value, node.scalar != .null,
              case .scalar(let text, _) = node.kind else { return nil }
        return text
    }

    /// The display name, as the profile page shows it.
    public var name: String? { value("name") }

    /// Sets the top-level `key` to the string `value`, adding the key when the file has none.
    public mutating func set(_ key: String, to value: String) throws(Diagnostic) {
        guard let pairs = root.mapping else { throw refusal("the profile is not a `key: value` mapping") }
        var edited = bytes
        if let node = pairs.first(where: { $0.key == key })?.value {
            guard case .scalar = node.kind, let end = node.end,
                  let start = offset(of: node.location), var stop = offset(of: end), start <= stop else {
                throw refusal("\"\(key)\" is not a single value")
            }
            // A block scalar's text runs to the next key: keep its final line break.
            while stop > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[stop - 1]) { stop -= 1 }
            // `key:` with no value: the new one needs the space after the colon.
            let space = start == stop && start > 0 && bytes[start - 1] == UInt8(ascii: ":") ? " " : ""
            edited.replaceSubrange(start..<stop, with: Array((space + written(value, like: node)).utf8))
        } else {
            guard let first = pairs.first, let start = offset(of: first.keyLocation) else {
                throw refusal("the profile has no key to put \"\(key)\" before")
            }
            let isFlow = offset(of: root.location).map { bytes[$0] == UInt8(ascii: "{") } ?? false
            var lineStart = start
            while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
            let onItsOwnLine = lineStart == 0 || bytes[lineStart - 1] == 0x0A
            let entry = (isJSON ? quoted(key) : key) + ": " + quoted(value) + (isFlow ? "," : "")
            let after = onItsOwnLine ? "\n" + String(decoding: bytes[lineStart..<start], as: UTF8.self) : " "
            edited.insert(contentsOf: Array((entry + after).utf8), at: start)
        }
        try adopt(edited, changing: key, to: value)
    }

    /// Points every image path into `content/users/<old>/` at `content/users/<new>/` instead, for
    /// a renamed user: the same file, moved with its folder. True when a path changed.
    public mutating func repointImages(from old: String, to new: String) throws(Diagnostic) -> Bool {
        var changed = false
        for key in Self.imageKeys {
            guard let path = value(key), let renamed = Self.path(path, movedFrom: old, to: new), renamed != path else { continue }
            try set(key, to: renamed)
            changed = true
        }
        return changed
    }

    /// `path` (relative to `content/users/`) leading through `old`'s folder instead through
    /// `new`'s: its first folder replaced when that is `old` (`./`, `.` parts and the rest kept as
    /// written), or else, when it resolves into `old` (`x/../old/icon.jpg`), the resolved path.
    /// Nil when the path does not go through `old`.
    static func path(_ path: String, movedFrom old: String, to new: String) -> String? {
        if path.hasPrefix("/") { return nil }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let first = parts.firstIndex(where: { $0 != "." && !$0.isEmpty }), parts[first] == old, first < parts.count - 1 {
            parts[first] = new
            return parts.joined(separator: "/")
        }
        var resolved: [String] = []
        for part in parts where part != "." && !part.isEmpty {
            if part == ".." {
                guard !resolved.isEmpty else { return nil }
                resolved.removeLast()
            } else {
                resolved.append(part)
            }
        }
        guard resolved.count > 1, resolved[0] == old else { return nil }
        return ([new] + resolved.dropFirst()).joined(separator: "/")
    }

    /// `text` written as the value it replaces was: a plain YAML path stays plain when it can
    /// (`icon: bob/icon.jpg`), a single-quoted one single-quoted; anything else is quoted.
    func written(_ text: String, like node: YAMLNode) -> String {
        guard !isJSON, case .scalar(_, let style) = node.kind, !text.isEmpty,
              text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil || "/._-".unicodeScalars.contains($0) }),
              text.first != "-", YAMLScalar.resolve(text, style: .plain, tag: nil) == .string(text) else { return quoted(text) }
        switch style {
        case .plain: return text
        case .singleQuoted: return "'" + text + "'"
        default: return quoted(text)
        }
    }

    /// A string value as this file's format writes it: a YAML double-quoted scalar, or a JSON
    /// string. Anything that is not printable is escaped, so the file reads back exactly `text`.
    func quoted(_ text: String) -> String {
        if isJSON {
            var out: [UInt8] = []
            JSONWriter.appendString(text, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        return YAMLScalar.doubleQuoted(text)
    }

    /// Takes `edited` when it reads back as this document with only `key` changed, to `value`.
    private mutating func adopt(_ edited: [UInt8], changing key: String, to value: String) throws(Diagnostic) {
        let reread: YAMLNode
        do { reread = try Self.parse(edited, file: file) } catch { throw refusal("the changed file would not read back") }
        guard let before = root.mapping, let after = reread.mapping else { throw refusal("the changed file would not read back") }
        let others = after.filter { $0.key != key }
        guard others.count == before.filter({ $0.key != key }).count,
              zip(others, before.filter { $0.key != key }).allSatisfy({ $0.key == $1.key && Self.same($0.value, $1.value) }),
              let changed = after.first(where: { $0.key == key })?.value, case .scalar(value, _) = changed.kind,
              changed.scalar == .string(value) else {
            throw refusal("the change would alter more than \"\(key)\"")
        }
        bytes = edited
        root = reread
    }

    /// The same value, wherever it is written.
    private static func same(_ a: YAMLNode, _ b: YAMLNode) -> Bool {
        guard a.tag == b.tag else { return false }
        switch (a.kind, b.kind) {
        case (.scalar(let x, let xStyle), .scalar(let y, let yStyle)): return x == y && xStyle == yStyle
        case (.sequence(let x), .sequence(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.mapping(let x), .mapping(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: return false
        }
    }

    private func refusal(_ reason: String) -> Diagnostic {
        Diagnostic("cannot change \(file) by itself: \(reason); edit the file by hand", at: SourceLocation(file: file, line: 1, column: 1))
    }

    /// The byte offset of a parser location: lines counted by line feeds, columns in characters
    /// (as libyaml counts them, after a byte-order mark it skips).
    private func offset(of location: SourceLocation) -> Int? {
        var index = ByteOrderMark.length(in: bytes)
        var line = 1
        while line < location.line {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = newline + 1
            line += 1
        }
        var column = 1
        while column < location.column {
            guard index < bytes.count, bytes[index] != 0x0A else { return nil }
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index
    }
}

extension ProfileFile {
    /// Why `name` cannot be `handle`'s display name, by the content loader's own reading of a
    /// profile that says only `name: …`; nil when it can.
    public static func nameProblem(_ name: String, handle: String, site: URL) -> String? {
        let file = ContentPath.profileFile(handle)
        let reader = NodeReader()
        guard let root = reader.parseYAML(Array(("name: " + YAMLScalar.doubleQuoted(name) + "\n").utf8), file: file) else {
            return reader.diagnostics.first?.message ?? "it cannot be written to a profile"
        }
        _ = ProfileReader(handle: handle, file: file, usersFolder: site.appendingPathComponent(ContentPath.usersFolder), reader: reader).read(root)
        return reader.diagnostics.first { $0.severity == .error }?.message
    }
}
