import Foundation

/// A file, link or folder as it was (or its absence), to put back.
enum Saved {
    case absent
    case file(Data)
    case link(String)
    case folder([String: Saved])

    init(_ url: URL) throws {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            self = .absent
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: self = .link(try FileManager.default.destinationOfSymbolicLink(atPath: url.path))
        case S_IFDIR:
            var entries: [String: Saved] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                entries[name] = try Saved(url.appendingPathComponent(name))
            }
            self = .folder(entries)
        default: self = .file(try Data(contentsOf: url))
        }
    }

    func restore(at url: URL) throws {
        var status = stat()
        if lstat(url.path, &status) == 0 { try FileManager.default.removeItem(at: url) }
        switch self {
        case .absent: return
        case .file(let data):
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        case .link(let target):
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        case .folder(let entries):
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, entry) in entries { try entry.restore(at: url.appendingPathComponent(name)) }
        }
    }
}
