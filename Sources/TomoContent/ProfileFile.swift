import Foundation
import TomoCore
import TomoYAML

/// A profile file's text as the commands that change it see it (`tomo user add|set|rename`):
/// its values are read and replaced where the parser found them, so comments, key order,
/// spacing and each value's style stay as the person wrote them, and a value is found by what
/// it is, however it is written (plain, quoted, a block scalar, `./`-prefixed, YAML or JSON).
/// Every change is proved by reading the result back: the same document with only that value
/// changed, or the change is refused.
public struct ProfileFile: Sendable {
    /// `content/users/<handle>.yaml` or `.json`, relative to the site.
    public let file: String
    public private(set) var bytes: [UInt8]
    private var root: YAMLNode

    /// One step from the top of the profile down to a value: a key of a mapping, or a place
    /// (from 0) in a list. `[.key("items"), .index(2), .key("icon")]` is the third item's icon.
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

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

    /// The `email:` the profile keeps private (without `showEmail: true`), if any.
    public var privateEmail: String? { value("showEmail") == "true" ? nil : value("email") }

    /// Sets the top-level `key` to the string `value`, adding the key when the file has none.
    public mutating func set(_ key: String, to value: String) throws(Diagnostic) {
        guard let pairs = root.mapping else { throw refusal("the profile is not a `key: value` mapping") }
        if pairs.contains(where: { $0.key == key }) {
            try replace(at: [.key(key)], with: value)
        } else {
            guard let first = pairs.first, let start = offset(of: first.keyLocation) else {
                throw refusal("the profile has no key to put \(key.quotedValue) before")
            }
            var edited = bytes
            let isFlow = offset(of: root.location).map { bytes[$0] == UInt8(ascii: "{") } ?? false
            var lineStart = start
            while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
            let onItsOwnLine = lineStart == 0 || bytes[lineStart - 1] == 0x0A
            let entry = (isJSON ? quoted(key) : key) + ": " + quoted(value) + (isFlow ? "," : "")
            let after = onItsOwnLine ? "\n" + String(decoding: bytes[lineStart..<start], as: UTF8.self) : " "
            edited.insert(contentsOf: Array((entry + after).utf8), at: start)
            try adopt(edited, changing: [.key(key)], to: value)
        }
    }

    /// Points every image path into `content/users/<old>/` at `content/users/<new>/` instead, for
    /// a renamed user: the same file, moved with its folder. True when a path changed.
    public mutating func repointImages(from old: String, to new: String) throws(Diagnostic) -> Bool {
        var changed = false
        for place in imagePlaces {
            guard let image = node(at: place), image.scalar != .null, case .scalar(let path, _) = image.kind,
                  let renamed = Self.path(path, movedFrom: old, to: new), renamed != path else { continue }
            try replace(at: place, with: renamed)
            changed = true
        }
        return changed
    }

    /// Where the file has an image path (relative to `content/users/`): every value the
    /// loader reads as a file (`ValueRule.file`: the icon, the header, each link's and each
    /// item's icon), found by the loader's own key tables, so an image field the profile format
    /// gains is repointed with the others.
    var imagePlaces: [[Step]] {
        var places: [[Step]] = []
        Self.collectFiles(in: root, rule: .mapping(isJSON ? ProfileReader.jsonTable : ProfileReader.table), at: [], into: &places)
        return places
    }

    private static func collectFiles(in node: YAMLNode, rule: ValueRule, at place: [Step], into places: inout [[Step]]) {
        switch rule {
        case .file:
            if case .scalar = node.kind, !places.contains(place) { places.append(place) }
        case .mapping(let table):
            for pair in node.mapping ?? [] where table.nameSet.contains(pair.key) {
                guard let spec = table.keys.first(where: { $0.key == pair.key }) else { continue }
                collectFiles(in: pair.value, rule: spec.value, at: place + [.key(pair.key)], into: &places)
            }
        case .list(let element, _):
            for (index, child) in (node.sequence ?? []).enumerated() {
                collectFiles(in: child, rule: element, at: place + [.index(index)], into: &places)
            }
        case .either(let rules):
            // Each rule takes its own kind of node (`links:` as a mapping or as a list).
            for rule in rules { collectFiles(in: node, rule: rule, at: place, into: &places) }
        default:
            break
        }
    }

    /// The node at `place`, or nil when the file has nothing there.
    func node(at place: [Step]) -> YAMLNode? {
        var node = root
        for step in place {
            switch step {
            case .key(let key):
                guard let value = node.mapping?.first(where: { $0.key == key })?.value else { return nil }
                node = value
            case .index(let index):
                guard let elements = node.sequence, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
        }
        return node
    }

    /// Replaces the single value at `place` with the string `value`, written in the style the
    /// old value had when that style holds it and reads back exactly (`written(_:like:)`, and
    /// for a block scalar `blockEdit`), or else double-quoted.
    private mutating func replace(at place: [Step], with value: String) throws(Diagnostic) {
        guard let old = node(at: place), case .scalar = old.kind, let end = old.end,
              var start = offset(of: old.location), var stop = offset(of: end), start <= stop else {
            throw refusal("\(Self.describe(place)) is not a single value", at: node(at: place)?.location)
        }
        // A block scalar's text runs to the next key: keep its final line break.
        while stop > start, Self.isSpace(bytes[stop - 1]) { stop -= 1 }
        // A tag (`!!str`) is part of how the value is written: it stays.
        while start < stop, bytes[start] == UInt8(ascii: "!") {
            while start < stop, !Self.isSpace(bytes[start]) { start += 1 }
            while start < stop, Self.isSpace(bytes[start]) { start += 1 }
        }
        // `key:` with no value: the new one needs the space after the colon.
        let space = start == stop && start > 0 && bytes[start - 1] == UInt8(ascii: ":") ? " " : ""
        var edits = [(start..<stop, space + written(value, like: old))]
        if let block = blockEdit(writing: value, over: start..<stop, like: old) { edits.insert(block, at: 0) }
        var problem: Diagnostic?
        for (range, text) in edits {
            var edited = bytes
            edited.replaceSubrange(range, with: Array(text.utf8))
            do {
                try adopt(edited, changing: place, to: value)
                return
            } catch {
                problem = error
            }
        }
        throw problem ?? refusal("\(Self.describe(place)) cannot be written", at: old.location)
    }

    /// The edit that keeps a block scalar (`|`, `>-`, `|2-` …) one: its indicator line, with any
    /// comment, and its indentation stay, and only its text changes, to `value` on one line
    /// (without the final line breaks, which the block's chomping indicator adds back as it
    /// did before). Nil for any other style, or a value of several lines; `adopt` proves the
    /// block reads back exactly `value`.
    private func blockEdit(writing value: String, over range: Range<Int>, like node: YAMLNode) -> (Range<Int>, String)? {
        guard case .scalar(_, let style) = node.kind, style == .literal || style == .folded,
              let header = bytes[range].firstIndex(of: 0x0A),
              let text = bytes[(header + 1)..<range.upperBound].firstIndex(where: { !Self.isSpace($0) }) else { return nil }
        var line = Substring(value)
        while line.last == "\n" { line.removeLast() }
        guard !line.isEmpty, !line.contains(where: \.isNewline) else { return nil }
        return (text..<range.upperBound, String(line))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }

    /// `place` as messages name it: `"icon"`, `"icon" of entry 2 of "links"` (entries counted from 1).
    static func describe(_ place: [Step]) -> String {
        place.reversed().map { step in
            switch step {
            case .key(let key): key.quotedValue
            case .index(let index): "entry \(index + 1)"
            }
        }.joined(separator: " of ")
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
    /// (`icon: bob/icon.jpg`), a single-quoted one single-quoted; anything else is quoted (a
    /// block scalar is kept one by `blockEdit`, and quoted only when it cannot be).
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

    /// Takes `edited` when it reads back as this document with only the value at `place`
    /// changed (or added), to the string `value`.
    private mutating func adopt(_ edited: [UInt8], changing place: [Step], to value: String) throws(Diagnostic) {
        let reread: YAMLNode
        do { reread = try Self.parse(edited, file: file) } catch { throw refusal("the changed file would not read back") }
        guard Self.isEdit(of: root, to: reread, at: place[...], value: value) else {
            throw refusal("the change would alter more than \(Self.describe(place))", at: node(at: place)?.location)
        }
        bytes = edited
        root = reread
    }

    /// Whether `after` is `before` with only the value at `place` changed to the string `value`;
    /// `before` is nil where that value is new.
    private static func isEdit(of before: YAMLNode?, to after: YAMLNode, at place: ArraySlice<Step>, value: String) -> Bool {
        guard let step = place.first else {
            guard case .scalar(value, _) = after.kind else { return false }
            return after.scalar == .string(value)
        }
        guard let before, before.tag == after.tag else { return false }
        switch step {
        case .key(let key):
            guard let old = before.mapping, let new = after.mapping, let changed = new.first(where: { $0.key == key }) else { return false }
            let (oldOthers, newOthers) = (old.filter { $0.key != key }, new.filter { $0.key != key })
            return oldOthers.count == newOthers.count
                && zip(oldOthers, newOthers).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
                && isEdit(of: old.first { $0.key == key }?.value, to: changed.value, at: place.dropFirst(), value: value)
        case .index(let index):
            guard let old = before.sequence, let new = after.sequence, old.count == new.count, new.indices.contains(index) else { return false }
            return old.indices.allSatisfy { $0 == index || same(old[$0], new[$0]) }
                && isEdit(of: old[index], to: new[index], at: place.dropFirst(), value: value)
        }
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

    /// Why the file cannot be changed, at the value it is about (the top of the file when none).
    private func refusal(_ reason: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic("cannot change \(file) by itself: \(reason); edit the file by hand", at: location ?? SourceLocation(file: file, line: 1, column: 1))
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
    /// profile that says only `name: …` (and the `email:` it keeps private, which no name may
    /// show); nil when it can.
    public static func nameProblem(_ name: String, handle: String, site: URL, privateEmail: String? = nil) -> String? {
        let file = ContentPath.profileFile(handle)
        let reader = NodeReader()
        let email = privateEmail.map { "email: " + YAMLScalar.doubleQuoted($0) + "\n" } ?? ""
        guard let root = reader.parseYAML(Array(("name: " + YAMLScalar.doubleQuoted(name) + "\n" + email).utf8), file: file) else {
            return reader.diagnostics.first?.message ?? "it cannot be written to a profile"
        }
        _ = ProfileReader(handle: handle, file: file, usersFolder: site.appendingPathComponent(ContentPath.usersFolder), reader: reader).read(root)
        return reader.diagnostics.first { $0.severity == .error }?.message
    }
}
