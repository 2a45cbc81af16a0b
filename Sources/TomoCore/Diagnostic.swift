import Foundation

/// A place in a source file, 1-based, as editors count it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A problem found in user input: what is wrong, where, and how to fix it.
///
/// Every error a person can cause is one of these (never a crash), so the CLI can print
/// `file:line:column: message` and exit 1.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation?
    /// What is wrong and, where there is one, the fix ("unknown colour "pruple" (did you mean "purple"?)").
    public var message: String

    public init(_ message: String, at location: SourceLocation? = nil, severity: Severity = .error) {
        self.message = message
        self.location = location
        self.severity = severity
    }

    /// The problem as one line, as every report prints it (`tomo check`, a failed build, the
    /// error page of `tomo serve`): the file name and the message with their control characters
    /// escaped, line feeds and tabs included (`\u000a`), since both quote what the site holds (a
    /// file named `a<LF>b.md`, a value) and one problem must never print as two lines. `message`
    /// and `location` keep the real characters, for JSON.
    public var description: String {
        let text = if let location { "\(location): \(message)" } else { message }
        return ControlEscaping.escaped(text)
    }

    /// What went wrong, for a message: a `Diagnostic`'s own words, or the system's (Foundation's
    /// description of a file error).
    /// A Foundation file error is told by the system's reason behind it ("Permission denied",
    /// "Too many open files"), not by its generic "The operation could not be completed"; any
    /// other error by its own description.
    public static func reason(of error: any Error) -> String {
        if let diagnostic = error as? Diagnostic { return diagnostic.message }
        let nsError = error as NSError
        for candidate in [nsError, nsError.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: candidate.code)))
        }
        if nsError.domain == NSCocoaErrorDomain { return nsError.localizedDescription }
        return (error as? CustomStringConvertible)?.description ?? nsError.localizedDescription
    }

    /// The order reports list problems in: by file, line and column (unplaced ones first).
    public static func isOrderedBefore(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        let left = a.location ?? SourceLocation(file: "", line: 0, column: 0)
        let right = b.location ?? SourceLocation(file: "", line: 0, column: 0)
        return (left.file, left.line, left.column) < (right.file, right.line, right.column)
    }
}

/// Several problems reported together: a build or check lists every error it found, not only the first.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    /// The problems as reports list them (`tomo check`, a failed build, `tomo serve`): by file,
    /// line and column, each said once even when several pages ran into it.
    public var inReportOrder: [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.sorted(by: Diagnostic.isOrderedBefore).filter { seen.insert($0).inserted }
    }
}
