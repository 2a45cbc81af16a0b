import Foundation
import TomoContent
import TomoCore

/// The site's local copy of the content schemas (`tomo schema`, `tomo init`) and what points
/// editors at it: the `yaml-language-server` modeline at the top of a YAML file and VS Code's
/// `.vscode/settings.json`. Local, so an editor checks files offline, against the schemas of
/// the tomo that wrote them.
public enum SchemaFiles {
    /// Where the schemas go by default, relative to the site.
    public static let folder = "schemas"

    /// Writes every schema into `folder` (made if missing), replacing older copies; the files
    /// written.
    public static func write(to folder: URL) throws(Diagnostic) -> [URL] {
        var written: [URL] = []
        for document in ContentSchema.documents {
            let url = folder.appendingPathComponent(document.fileName)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try RegularFile.replaceWhole(url.path) { try Data((JSONWriter.string(document.json) + "\n").utf8).write(to: $0) }
            } catch {
                throw Diagnostic("cannot write \(url.path): \(Diagnostic.reason(of: error))")
            }
            written.append(url)
        }
        return written
    }

    /// Writes the schemas into the site's `schemas/` unless `document`'s is there already (a
    /// file with a modeline needs it); true when they were written.
    public static func writeIfMissing(_ document: ContentSchema.Document, site: URL) throws(Diagnostic) -> Bool {
        let folderURL = site.appendingPathComponent(folder)
        guard !FileManager.default.fileExists(atPath: folderURL.appendingPathComponent(document.fileName).path) else { return false }
        _ = try write(to: folderURL)
        return true
    }

    /// `# yaml-language-server: $schema=../../schemas/profile.schema.json` for the YAML file at
    /// `file` (relative to the site): the path from that file's folder to the site's copy.
    public static func modeline(_ document: ContentSchema.Document, for file: String) -> String {
        let depth = file.split(separator: "/").count - 1
        let up = String(repeating: "../", count: max(0, depth))
        return "# yaml-language-server: $schema=\(up)\(folder)/\(document.fileName)"
    }

    /// `.vscode/settings.json`, relative to the site.
    public static let editorSettingsFile = ".vscode/settings.json"

    /// VS Code's settings for the site folder: the YAML extension's `yaml.schemas` and the
    /// built-in `json.schemas`, from each schema to the files it describes.
    public static var editorSettings: String {
        var yaml: [String: JSONValue] = [:]
        var json: [JSONValue] = []
        for document in ContentSchema.documents {
            // A leading `/` anchors the pattern at the workspace folder (the site), for both.
            guard let files = document.files.map({ "/" + $0 }) else { continue }
            let url = "./\(folder)/\(document.fileName)"
            if files.hasSuffix(".json") {
                json.append(["fileMatch": [.string(files)], "url": .string(url)])
            } else {
                yaml[url] = .string(files)
            }
        }
        return JSONWriter.string(["yaml.schemas": .object(yaml), "json.schemas": .array(json)]) + "\n"
    }
}
