import Foundation
import TomoCore

/// Asks exiftool (Debian's libimage-exiftool-perl, installed by `make deps`) what it finds in a
/// file: an independent second opinion on metadata stripping.
enum ExifTool {
    static let path = "/usr/bin/exiftool"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Tags exiftool reports, as "Group:Tag", leaving out what it says about the file itself
    /// (size, dates, dimensions: groups System, File, ExifTool, Composite) and the container
    /// headers that carry no metadata (JFIF, RIFF).
    static func metadataTags(in file: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-j", "-a", "-G1", "-s", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSONParser.parse(bytes: Array(data), file: "exiftool output")
        let tags = json.arrayValue?.first?.objectValue?.keys.map { $0 } ?? []
        let ignoredGroups = ["System", "File", "ExifTool", "Composite", "JFIF", "RIFF"]
        return tags.filter { tag in
            tag != "SourceFile" && !ignoredGroups.contains { tag.hasPrefix("\($0):") }
        }.sorted()
    }
}
