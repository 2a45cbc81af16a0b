import Foundation

/// Whether a relative path names an existing file that stays inside a folder: no absolute
/// path, no `..` that climbs out, no symbolic link that points out of it.
enum ContainedFile {
    enum Outcome: Equatable { case inside, outside, missing }

    static func check(_ path: String, in folder: URL) -> Outcome {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.contains("\\") || path.contains("\0") { return .outside }
        var depth = 0
        for component in path.split(separator: "/") {
            if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
            if depth < 0 { return .outside }
        }
        let file = folder.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return .missing }
        let realFolder = folder.resolvingSymlinksInPath().path
        let realFile = file.resolvingSymlinksInPath().path
        return realFile.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/") ? .inside : .outside
    }
}
