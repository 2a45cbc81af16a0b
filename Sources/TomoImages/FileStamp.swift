import Foundation

/// A file's size and modification time: enough to notice that it was rewritten between two reads.
struct FileStamp: Equatable {
    var size: Int?
    var modified: timespec?

    init(_ file: URL) {
        var status = stat()
        // stat(2), not FileManager.attributesOfItem: that one also looks up the owner's account
        // name, which reads /etc/nsswitch.conf on every call and dominated a build's time.
        guard stat(file.path, &status) == 0 else { return }
        size = Int(status.st_size)
        modified = status.st_mtim
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(of path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.modified?.tv_sec == b.modified?.tv_sec && a.modified?.tv_nsec == b.modified?.tv_nsec
    }
}
