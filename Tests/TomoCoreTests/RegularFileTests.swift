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

    @Test func aFifoADeviceAndAFolderAreRefusedWithoutBlocking() throws {
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let link = folder.appendingPathComponent("zero")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        #expect(RegularFile.read(fifo.path).failure == .notRegular(kind: "a named pipe (FIFO)"))
        #expect(RegularFile.read(link.path).failure == .notRegular(kind: "a character device"))
        #expect(RegularFile.read(folder.path).failure == .notRegular(kind: "a folder"))
        #expect(RegularFile.contents(fifo.path) == nil)
        #expect(RegularFile.Failure.notRegular(kind: "a folder").reason == "it is a folder, not a regular file: replace it with a file")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
