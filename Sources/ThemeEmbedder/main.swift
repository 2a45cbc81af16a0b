import Foundation
import TomoCore

// Writes a Swift file holding every file of the theme folder: text as string literals,
// anything else as base64. Usage: ThemeEmbedder THEME_DIR OUTPUT.swift

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ThemeEmbedder THEME_DIR OUTPUT.swift\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL.resolvingSymlinksInPath()
let outputURL = URL(fileURLWithPath: arguments[2])

func swiftLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                literal.unicodeScalars.append(scalar)
            }
        }
    }
    return literal + "\""
}

/// Stops the build: a theme file that cannot be read must not leave the binary without it.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ThemeEmbedder: \(message)\n".utf8))
    exit(1)
}

var entries: [(path: String, line: String)] = []
let walk = FolderEntries.files(under: root.path, display: "templates")
if let problem = walk.problems.first { fail(problem.description) }
for path in walk.files ?? [] {
    guard let data = FileManager.default.contents(atPath: root.path + "/" + path) else { fail("cannot read templates/\(path)") }
    if let text = String(data: data, encoding: .utf8), !data.contains(0) {
        entries.append((path, "        \(swiftLiteral(path)): .text(\(swiftLiteral(text))),"))
    } else {
        entries.append((path, "        \(swiftLiteral(path)): .base64(\(swiftLiteral(data.base64EncodedString()))),"))
    }
}
entries.sort { $0.path < $1.path }

let source = """
// Generated from the top-level templates/ folder by ThemeEmbedder. Do not edit.

enum EmbeddedTheme {
    enum Content {
        case text(String)
        case base64(String)
    }

    static let files: [String: Content] = [
\(entries.isEmpty ? "        :" : entries.map(\.line).joined(separator: "\n"))
    ]
}

"""
do {
    try source.write(to: outputURL, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(outputURL.path): \(error)")
}
