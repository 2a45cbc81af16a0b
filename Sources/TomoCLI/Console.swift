import Foundation

/// Where a command's words go: results to standard output, problems to standard error.
/// Colours are used only when the stream is a terminal (and `NO_COLOR` is not set).
public final class Console: Sendable {
    public enum Stream: Sendable { case output, error }

    private let write: @Sendable (Stream, String) -> Void
    public let colorsOnOutput: Bool
    public let colorsOnError: Bool
    public let isInteractive: Bool

    public init(
        colorsOnOutput: Bool = false,
        colorsOnError: Bool = false,
        isInteractive: Bool = false,
        write: @escaping @Sendable (Stream, String) -> Void
    ) {
        self.write = write
        self.colorsOnOutput = colorsOnOutput
        self.colorsOnError = colorsOnError
        self.isInteractive = isInteractive
    }

    /// The process's own standard output and error.
    public static func standard() -> Console {
        let environment = ProcessInfo.processInfo.environment
        let colorsAllowed = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        return Console(
            colorsOnOutput: colorsAllowed && isatty(STDOUT_FILENO) == 1,
            colorsOnError: colorsAllowed && isatty(STDERR_FILENO) == 1,
            isInteractive: isatty(STDERR_FILENO) == 1
        ) { stream, text in
            let handle = stream == .output ? FileHandle.standardOutput : FileHandle.standardError
            handle.write(Data(text.utf8))
        }
    }

    /// Writes `text` to standard output as it is (no newline added).
    public func out(_ text: String) { write(.output, text) }

    /// Writes one line to standard output.
    public func line(_ text: String = "") { write(.output, text + "\n") }

    /// Writes `text` to standard error as it is (progress lines that rewrite themselves).
    public func errorText(_ text: String) { write(.error, text) }

    /// Writes one line to standard error.
    public func errorLine(_ text: String) { write(.error, text + "\n") }

    /// `error: message` in red on a terminal.
    public func error(_ message: String) {
        errorLine(paint("error:", .red, on: .error) + " " + message)
    }

    /// `warning: message` in yellow on a terminal.
    public func warning(_ message: String) {
        errorLine(paint("warning:", .yellow, on: .error) + " " + message)
    }

    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
    }

    public func paint(_ text: String, _ color: Color, on stream: Stream = .output) -> String {
        let enabled = stream == .output ? colorsOnOutput : colorsOnError
        return enabled ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
