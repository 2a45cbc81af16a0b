import Foundation

/// A file's size and modification time: enough to notice that it was rewritten between two reads.
struct FileStamp: Equatable {
    var size: Int?
    var modified: Date?

    init(_ file: URL) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        size = attributes?[.size] as? Int
        modified = attributes?[.modificationDate] as? Date
    }
}
