/// The readable part of a published thumbnail's file name.
enum PublishedName {
    /// "content/users/alice/My Icon.JPG" -> "my-icon": lowercase ASCII letters, digits, `-` and
    /// `_` only, at most 40 characters, "image" when nothing is left, so URLs need no escaping.
    static func stem(of path: String) -> String {
        // Every thumbnail of every build is named here (100,000 images at 10,000 users): a name
        // of ASCII is made from its bytes; any other goes through Unicode's lowercasing.
        if let stem = path.utf8.withContiguousStorageIfAvailable(asciiStem) ?? nil { return stem }
        return unicodeStem(of: path)
    }

    /// What `unicodeStem` makes of a path whose file name is ASCII; nil for any other.
    private static func asciiStem(_ path: UnsafeBufferPointer<UInt8>) -> String? {
        let nameStart = (path.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
        guard nameStart < path.count else { return nil }
        let baseEnd = path[nameStart...].lastIndex(of: UInt8(ascii: ".")) ?? path.count
        var stem: [UInt8] = []
        stem.reserveCapacity(min(baseEnd - nameStart, 40))
        for byte in path[nameStart..<baseEnd] {
            guard byte < 0x80 else { return nil }
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lower) || lower == UInt8(ascii: "_") {
                stem.append(lower)
            } else if let last = stem.last, last != UInt8(ascii: "-") {
                stem.append(UInt8(ascii: "-"))
            }
        }
        while stem.last == UInt8(ascii: "-") { stem.removeLast() }
        if stem.count > 40 { stem.removeLast(stem.count - 40) }
        while stem.last == UInt8(ascii: "-") { stem.removeLast() }
        return stem.isEmpty ? "image" : String(decoding: stem, as: UTF8.self)
    }

    /// The stem of any path, by Unicode's lowercasing.
    static func unicodeStem(of path: String) -> String {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let base = fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
        var stem = ""
        for scalar in base.lowercased().unicodeScalars {
            let isKept = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
            if isKept {
                stem.unicodeScalars.append(scalar)
            } else if !stem.isEmpty && !stem.hasSuffix("-") {
                stem += "-"
            }
        }
        while stem.hasSuffix("-") { stem.removeLast() }
        stem = String(stem.prefix(40))
        while stem.hasSuffix("-") { stem.removeLast() }
        return stem.isEmpty ? "image" : stem
    }
}
