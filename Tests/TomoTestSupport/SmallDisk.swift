import Foundation

/// A disk that fills up, made real with a small tmpfs (root only), for the tests of what a
/// full disk does to each command and to the preview.
public enum SmallDisk {
    /// Whether this process can mount a tmpfs (root, and a kernel and container that allow it).
    public static let canMount: Bool = {
        guard getuid() == 0, let folder = try? TemporaryFolder() else { return false }
        guard (try? mount(folder.url, kilobytes: 16)) != nil else { return false }
        unmount(folder.url)
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` at `folder` (made when missing).
    public static func mount(_ folder: URL, kilobytes: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard try run(["/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Makes the tmpfs at `folder` read-only, or writable again: nothing in it can then be
    /// deleted, by root either.
    public static func remount(_ folder: URL, writable: Bool) throws {
        guard try run(["/bin/mount", "-o", "remount," + (writable ? "rw" : "ro"), folder.path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    public static func unmount(_ folder: URL) {
        _ = try? run(["/bin/umount", folder.path])
    }

    private static func run(_ command: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
