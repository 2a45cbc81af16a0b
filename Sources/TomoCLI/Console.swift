import Foundation
import Synchronization

/// Where a command's words go: results to standard output, problems to standard error.
/// Colours are used only when the stream is a terminal (and `NO_COLOR` is unset or empty).
///
/// Everything printed passes through here as `ConsoleText`, which escapes control characters:
/// one place makes every command safe to run on a terminal whatever the store and the content
/// hold. Each method also takes a plain string (all of it escaped, nothing painted).
public final class Console: Sendable {
    public enum Stream: Sendable { case output, error }

    private let write: @Sendable (Stream, String) -> Void
    public let colorsOnOutput: Bool
    public let colorsOnError: Bool
    public let isInteractive: Bool
    /// Whether standard output is a terminal (`exactly` escapes control characters there).
    public let outputIsTerminal: Bool
    /// The exit status of a command that ended with the given one, after what this console's
    /// streams did (`StandardStreams.exitStatus`).
    private let exitStatus: @Sendable (Int32) -> Int32

    /// A console whose text goes to `write`, already escaped and painted (tests capture it).
    public convenience init(
        colorsOnOutput: Bool = false,
        colorsOnError: Bool = false,
        isInteractive: Bool = false,
        outputIsTerminal: Bool = false,
        write: @escaping @Sendable (Stream, String) -> Void
    ) {
        self.init(
            colorsOnOutput: colorsOnOutput, colorsOnError: colorsOnError, isInteractive: isInteractive, outputIsTerminal: outputIsTerminal,
            exitStatus: { $0 }, sink: write
        )
    }

    private init(
        colorsOnOutput: Bool,
        colorsOnError: Bool,
        isInteractive: Bool,
        outputIsTerminal: Bool,
        exitStatus: @escaping @Sendable (Int32) -> Int32,
        sink: @escaping @Sendable (Stream, String) -> Void
    ) {
        self.write = sink
        self.outputIsTerminal = outputIsTerminal
        self.exitStatus = exitStatus
        self.colorsOnOutput = colorsOnOutput
        self.colorsOnError = colorsOnError
        self.isInteractive = isInteractive
    }

    /// The process's own standard output and error, written with `write(2)` (see
    /// `StandardStreams` for what a closed or full stream does).
    public static func standard() -> Console {
        StandardStreams.prepare()
        let colorsAllowed = colorsAllowed(by: ProcessInfo.processInfo.environment)
        return Console(
            colorsOnOutput: colorsAllowed && isatty(STDOUT_FILENO) == 1,
            colorsOnError: colorsAllowed && isatty(STDERR_FILENO) == 1,
            isInteractive: isatty(STDERR_FILENO) == 1,
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            exitStatus: StandardStreams.exitStatus(after:)
        ) { stream, text in
            StandardStreams.write(text, to: stream)
        }
    }

    /// The exit status of a command that ended with `status`: 1 instead of 0 when what it
    /// printed was lost (a full disk, a closed descriptor), not when its reader went away.
    public func exitStatus(after status: Int32) -> Int32 { exitStatus(status) }

    /// Whether the environment lets a terminal show colours: not when `NO_COLOR` is set to
    /// anything but the empty string (no-color.org: an empty NO_COLOR is as if unset), nor on a
    /// `TERM=dumb` terminal.
    static func colorsAllowed(by environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    private func emit(_ text: ConsoleText, on stream: Stream) {
        write(stream, text.rendered(colors: stream == .output ? colorsOnOutput : colorsOnError))
    }

    /// Writes `text` to standard output as it is (no newline added).
    public func out(_ text: ConsoleText) { emit(text, on: .output) }

    /// Writes `text` to standard output byte for byte when it goes to a file or a pipe (a
    /// rendered template, which may hold any character); on a terminal, escaped as all text is.
    public func exactly(_ text: String) {
        if outputIsTerminal { out(text) } else { write(.output, text) }
    }

    /// Writes one line to standard output.
    public func line(_ text: ConsoleText = "") { emit("\(text)\n", on: .output) }

    /// Writes one line to standard error.
    public func errorLine(_ text: ConsoleText) { emit("\(text)\n", on: .error) }

    /// `error: message` in red on a terminal.
    public func error(_ message: ConsoleText) {
        errorLine("\(paint("error:", .red)) \(message)")
    }

    /// `warning: message` in yellow on a terminal.
    public func warning(_ message: ConsoleText) {
        errorLine("\(paint("warning:", .yellow)) \(message)")
    }

    /// A progress line on standard error that the next one replaces (call only when
    /// `isInteractive`); `nil` clears it.
    public func progress(_ text: ConsoleText?) {
        write(.error, "\r\u{1B}[2K" + (text?.rendered(colors: colorsOnError) ?? ""))
    }

    // Plain strings: escaped and printed without colour. `@_disfavoredOverload` keeps string
    // literals, and the painted parts interpolated into them, on the `ConsoleText` methods.
    @_disfavoredOverload public func out(_ text: some StringProtocol) { out(ConsoleText(text)) }
    @_disfavoredOverload public func line(_ text: some StringProtocol) { line(ConsoleText(text)) }
    @_disfavoredOverload public func errorLine(_ text: some StringProtocol) { errorLine(ConsoleText(text)) }
    @_disfavoredOverload public func error(_ message: some StringProtocol) { error(ConsoleText(message)) }
    @_disfavoredOverload public func warning(_ message: some StringProtocol) { warning(ConsoleText(message)) }

    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
    }

    /// `text` in `color`, on a stream that shows colours.
    public func paint(_ text: some StringProtocol, _ color: Color) -> ConsoleText {
        ConsoleText(text, color: color)
    }
}
