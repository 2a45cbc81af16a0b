import Foundation

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

var entries: [(path: String, line: String)] = []
if let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) {
    for case let url as URL in enumerator {
        let resolved = url.resolvingSymlinksInPath()
        guard (try? resolved.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
              let data = FileManager.default.contents(atPath: resolved.path) else { continue }
        let path = String(resolved.path.dropFirst(root.path.count + 1))
        if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
        if let text = String(data: data, encoding: .utf8), !data.contains(0) {
            entries.append((path, "        \(swiftLiteral(path)): .text(\(swiftLiteral(text))),"))
        } else {
            entries.append((path, "        \(swiftLiteral(path)): .base64(\(swiftLiteral(data.base64EncodedString()))),"))
        }
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
    FileHandle.standardError.write(Data("ThemeEmbedder: cannot write \(outputURL.path): \(error)\n".utf8))
    exit(1)
}
