import Foundation
import Testing
import TomoTestSupport

/// On a terminal, `NO_COLOR` turns colours off when it is set to anything but the empty string
/// (no-color.org: "when present and not an empty string"); unset or empty, colours stay.
@Suite struct NoColorTests {
    /// What the real `tomo check` writes to a terminal (a pseudo-terminal made by `script`),
    /// with `NO_COLOR` as given (nil: unset).
    static func checkOnATerminal(noColor: String?) throws -> String {
        let site = try TemporaryFolder(["content/site.yaml": "title: [\n"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "'\(tomoBinary().path)' check --site '\(site.path)'"
        process.arguments = ["-qec", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = noColor
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: [nil, ""]) func coloursStayWhenNoColorIsUnsetOrEmpty(noColor: String?) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"))
        let text = try Self.checkOnATerminal(noColor: noColor)
        #expect(text.contains("\u{1B}[31merror:\u{1B}[0m"), "\(text.debugDescription)")
    }

    @Test(arguments: ["1", "0", "false", " "]) func anyValueTurnsColoursOff(noColor: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"))
        let text = try Self.checkOnATerminal(noColor: noColor)
        #expect(text.contains("error:"), "\(text.debugDescription)")
        #expect(!text.contains("\u{1B}["), "\(text.debugDescription)")
    }
}
