import Foundation
import Testing
import TomoCore
import TomoTestSupport

/// Reading a file that must be a regular file: anything else is refused at once, never read.
@Suite struct RegularFileTests {
    private let temporary: TemporaryFolder
    private var folder: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder(prefix: "tomo-regular")
    }

    @Test func aRegularFileIsReadWhole() throws {
        let file = folder.appendingPathComponent("file")
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        try Data(bytes).write(to: file)
        #expect(RegularFile.read(file.path) == .success(bytes))
        try Data().write(to: file)
        #expect(RegularFile.read(file.path) == .success([]))
        #expect(RegularFile.read(folder.appendingPathComponent("none").path) == .failure(.missing))
        #expect(RegularFile.read(file.path + "/below").failure == .missing)
    }

    /// A file longer than its size said when it was opened (one that grew meanwhile, or a
    /// kernel file whose size reads 0) is read to its end all the same.
    @Test func aFileLongerThanItsSizeIsReadToItsEnd() throws {
        let status = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        let read = try RegularFile.read("/proc/self/smaps").get()
        #expect(read.count > 4096)
        #expect(String(decoding: read, as: UTF8.self).hasPrefix(String(status.prefix(while: { $0 != "\n" }))))
    }

    @Test func aFifoADeviceAndAFolderAreRefusedWithoutBlocking() throws {
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let link = folder.appendingPathComponent("zero")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        #expect(RegularFile.read(fifo.path).failure == .notRegular(kind: "a named pipe (FIFO)"))
        #expect(RegularFile.read(link.path).failure == .notRegular(kind: "a character device"))
        #expect(RegularFile.read(folder.path).failure == .notRegular(kind: "a folder"))
        #expect(RegularFile.contents(fifo.path) == nil)
        // A socket cannot even be opened: it is named as what it is too, not "No such device".
        let socketPath = folder.appendingPathComponent("socket").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        #expect(RegularFile.read(socketPath).failure == .notRegular(kind: "a socket"))
        #expect(RegularFile.check(socketPath) == .notRegular(kind: "a socket"))
        #expect(RegularFile.Failure.notRegular(kind: "a folder").reason == "it is a folder, not a regular file: replace it with a file")
    }

    /// A link planted under the temporary name of a replace (`<file>.tmp-<pid>`) is removed, never
    /// written through: the file it points to keeps its bytes, and the file replaced gets the
    /// new ones, with no temporary file left. A folder under that name makes the replace fail,
    /// leaving the old file as it was.
    @Test func aReplaceNeverWritesThroughAPlantedLink() throws {
        let kept = folder.appendingPathComponent("state")
        let outside = folder.appendingPathComponent("outside")
        try Data("old".utf8).write(to: kept)
        try Data("not yours".utf8).write(to: outside)
        let temporaryName = kept.path + ".tmp-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: temporaryName, withDestinationPath: outside.path)
        #expect(RegularFile.replace(kept.path, with: Array("new".utf8)))
        #expect(RegularFile.contents(kept.path) == Array("new".utf8))
        #expect(RegularFile.contents(outside.path) == Array("not yours".utf8))
        #expect(!FileManager.default.fileExists(atPath: temporaryName))

        try FileManager.default.createDirectory(atPath: temporaryName, withIntermediateDirectories: false)
        #expect(!RegularFile.replace(kept.path, with: Array("newer".utf8)))
        #expect(RegularFile.contents(kept.path) == Array("new".utf8))
        #expect(RegularFile.replace(kept.path, with: []) == false)
        try FileManager.default.removeItem(atPath: temporaryName)
        #expect(RegularFile.replace(kept.path, with: []))
        #expect(RegularFile.contents(kept.path) == [])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
