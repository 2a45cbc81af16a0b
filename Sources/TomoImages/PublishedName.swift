/// The readable part of a published thumbnail's file name.
enum PublishedName {
    /// "content/users/alice/My Icon.JPG" -> "my-icon": lowercase ASCII letters, digits, `-` and
    /// `_` only, at most 40 characters, "image" when nothing is left, so URLs need no escaping.
    static func stem(of path: String) -> String {
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
