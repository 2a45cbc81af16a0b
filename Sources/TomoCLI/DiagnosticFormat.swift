import TomoCore

/// How `tomo check --format` prints problems: `text` as every command does
/// (`error: FILE:LINE:COLUMN: message`), `gnu` as compilers do (`FILE:LINE:COLUMN: error:
/// message`, what editors' and CI's problem matchers read), `json` as one array on standard
/// output for programs.
enum DiagnosticFormat: String, CaseIterable {
    case text, gnu, json

    static let names = allCases.map(\.rawValue)

    /// `--format`, text when absent; a word that is none of them is wrong usage.
    static func option(_ invocation: Invocation) throws(UsageError) -> DiagnosticFormat {
        guard let word = invocation.option("format") else { return .text }
        guard let format = DiagnosticFormat(rawValue: word) else {
            throw UsageError("unknown --format \"\(word)\"\(Suggestion.hint(for: word, in: names)): use \(names.joined(separator: ", ") )", usage: invocation.command.usage)
        }
        return format
    }

    func report(_ diagnostics: [Diagnostic], on console: Console) {
        switch self {
        case .text:
            for diagnostic in diagnostics { TomoCommandLine.report(diagnostic, on: console) }
        case .gnu:
            for diagnostic in diagnostics {
                let color: Console.Color = diagnostic.severity == .error ? .red : .yellow
                let label = console.paint("\(diagnostic.severity.rawValue):", color)
                if let location = diagnostic.location {
                    console.errorLine("\(location.description): \(label) \(diagnostic.message)")
                } else {
                    console.errorLine("\(label) \(diagnostic.message)")
                }
            }
        case .json:
            let entries: [JSONValue] = diagnostics.map { diagnostic in
                [
                    "file": JSONValue(diagnostic.location?.file),
                    "line": diagnostic.location.map { .int($0.line) } ?? .null,
                    "column": diagnostic.location.map { .int($0.column) } ?? .null,
                    "severity": .string(diagnostic.severity.rawValue),
                    "message": .string(diagnostic.message),
                ]
            }
            console.line(JSONWriter.string(.array(entries)))
        }
    }
}
