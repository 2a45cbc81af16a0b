import Foundation
import Testing
@testable import TomoImages
import TomoTestSupport

/// A committed test image (see Fixtures/README.md for how each was made).
func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
}

extension TemporaryFolder {
    var cache: URL { url.appendingPathComponent("cache") }

    /// Writes `bytes` to a file in the folder and returns its URL.
    func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try write(name, bytes: bytes)
        return url.appendingPathComponent(name)
    }
}

func bytes(of url: URL) throws -> [UInt8] {
    Array(try Data(contentsOf: url))
}

func modificationDate(of url: URL) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
}

/// Every file under `folder`, relative paths, sorted.
func filesUnder(_ folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
            files.append(path)
        }
    }
    return files.sorted()
}
