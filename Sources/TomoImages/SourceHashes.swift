import Foundation
import Synchronization
import TomoCore

/// The SHA-256 of each source image by its stamp, kept in the cache folder (`sources`), so a
/// build reads and hashes only the photos that are new or changed since the last one.
final class SourceHashes: Sendable {
    private struct Known: Sendable {
        var stamp: FileStamp
        var hash: String
    }

    private let file: URL
    private let state: Mutex<(byPath: [String: Known], changed: Bool)>

    init(folder: URL) {
        file = folder.appendingPathComponent("sources")
        var byPath: [String: Known] = [:]
        // Lines of `size inode modified changed sha256 path`; a damaged line is skipped.
        if let data = RegularFile.contents(file.path) {
            _ = LineCursor.forEachLine(of: data) { line in
                guard let size = line.integer(), let inode = line.integer(), let modified = line.integer(),
                      let changed = line.integer() else { return true }
                let hash = line.word()
                let stamp = FileStamp(size: size, inode: UInt64(bitPattern: inode), modified: modified, changed: changed)
                byPath[line.rest()] = Known(stamp: stamp, hash: hash)
                return true
            }
        }
        state = Mutex((byPath, false))
    }

    /// The hash recorded for `path` when the file still has `stamp`.
    func hash(of path: String, stamp: FileStamp) -> String? {
        state.withLock { state in
            guard let known = state.byPath[path], known.stamp == stamp else { return nil }
            return known.hash
        }
    }

    func record(_ hash: String, of path: String, stamp: FileStamp) {
        state.withLock { state in
            state.byPath[path] = Known(stamp: stamp, hash: hash)
            state.changed = true
        }
    }

    /// Writes the index when something was recorded (a lost write only costs hashing again).
    func save() {
        let (byPath, changed) = state.withLock { ($0.byPath, $0.changed) }
        guard changed else { return }
        var text = ""
        for (path, known) in byPath where !path.contains("\n") {
            text += "\(known.stamp.text) \(known.hash) \(path)\n"
        }
        let temporary = file.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        if rename(temporary, file.path) != 0 { unlink(temporary) }
        state.withLock { $0.changed = false }
    }
}
