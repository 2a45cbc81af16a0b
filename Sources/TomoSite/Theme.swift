import Foundation
import TomoCore
import TomoTemplates
import TomoTheme

/// What a site is rendered with: the built-in theme, with the site's own `templates/` folder
/// laid over it file by file (a template, a label file or a static file of the same name wins).
public struct Theme: Sendable {
    public let templates: TemplateLibrary
    /// The labels of the site's language (`labels/en.json` or `labels/ja.json`).
    public let labels: [String: JSONValue]
    /// Output path (`static/style.css`) → where the bytes come from.
    public let staticFiles: [String: StaticFile]

    public enum StaticFile: Sendable, Hashable {
        case builtin(String)
        case site(URL)

        public func contents() -> [UInt8]? {
            switch self {
            case .builtin(let path): return BuiltinTheme.contents(of: path).map { Array($0) }
            case .site(let url): return RegularFile.contents(url.path)
            }
        }
    }

    /// Loads the theme for `site`, reporting every broken template and label file at once.
    public static func load(site: URL, language: String) throws(DiagnosticList) -> Theme {
        let folder = site.appendingPathComponent("templates")
        var problems: [Diagnostic] = []
        var templates: TemplateLibrary
        do {
            templates = try TemplateLibrary(sources: BuiltinTheme.templateSources)
        } catch {
            problems += error.diagnostics
            templates = TemplateLibrary()
        }
        var isDirectory: ObjCBool = false
        let hasOwnTemplates = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if hasOwnTemplates {
            do {
                templates = templates.overlaid(by: try TemplateLibrary(directory: folder, displayPrefix: "templates/"))
            } catch {
                problems += error.diagnostics
            }
        }

        var labels: [String: JSONValue] = [:]
        let labelPath = "labels/\(language).json"
        if let builtin = BuiltinTheme.contents(of: labelPath) {
            do {
                labels = try JSONParser.parse(bytes: Array(builtin), file: "templates/" + labelPath).objectValue ?? [:]
            } catch {
                problems.append(error)
            }
        }
        if hasOwnTemplates, let own = ownLabels(folder.appendingPathComponent(labelPath), file: "templates/" + labelPath, problems: &problems) {
            do throws(Diagnostic) {
                guard let overrides = try JSONParser.parse(bytes: own, file: "templates/" + labelPath).objectValue else {
                    throw Diagnostic("a label file is a JSON object of label names and texts", at: SourceLocation(file: "templates/" + labelPath, line: 1, column: 1))
                }
                labels.merge(overrides) { _, own in own }
            } catch {
                problems.append(error)
            }
        }

        var staticFiles: [String: StaticFile] = [:]
        for path in BuiltinTheme.paths where path.hasPrefix("static/") {
            staticFiles[path] = .builtin(path)
        }
        if hasOwnTemplates {
            let staticFolder = folder.appendingPathComponent("static").resolvingSymlinksInPath()
            let enumerator = FileManager.default.enumerator(at: staticFolder, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                let resolved = url.resolvingSymlinksInPath()
                guard (try? resolved.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                      resolved.path.hasPrefix(staticFolder.path + "/") else { continue }
                let relative = String(resolved.path.dropFirst(staticFolder.path.count + 1))
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                staticFiles["static/" + relative] = .site(resolved)
            }
        }

        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return Theme(templates: templates, labels: labels, staticFiles: staticFiles)
    }

    /// The site's own label file, nil when it has none (or after reporting why it cannot be read).
    private static func ownLabels(_ url: URL, file: String, problems: inout [Diagnostic]) -> [UInt8]? {
        switch RegularFile.read(url.path) {
        case .success(let bytes): return bytes
        case .failure(.missing): return nil
        case .failure(let failure):
            problems.append(Diagnostic("cannot read \(file): \(failure.reason)", at: SourceLocation(file: file, line: 1, column: 1)))
            return nil
        }
    }
}
