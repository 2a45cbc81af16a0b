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
    /// The pixel size of the link-preview image for pages without one of their own
    /// (`static/preview.png`), nil when the theme has none.
    let previewImageSize: (width: Int, height: Int)?

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
        // One walk of templates/ lists the site's templates, labels and static files; a folder
        // in it that cannot be read, or a link that leads out of the site, is an error, never a
        // theme without those files.
        let links = SiteLinks(site: site.path)
        var ownFiles: [String] = []
        if let problem = links.problem(onPathOf: "templates") {
            problems.append(problem)
        } else {
            let walk = FolderEntries.files(under: folder.path, display: "templates", links: links)
            problems += walk.problems
            ownFiles = walk.files ?? []
        }
        for special in ["static", "labels"] where ownFiles.contains(special) {
            problems.append(FolderFailure(.notAFolder).diagnostic(folder: "templates/" + special))
        }
        if !ownFiles.isEmpty {
            do {
                templates = templates.overlaid(by: try TemplateLibrary(files: ownFiles, in: folder, displayPrefix: "templates/"))
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
        if ownFiles.contains(labelPath) {
            do throws(Diagnostic) {
                let own: [UInt8]
                switch RegularFile.read(folder.appendingPathComponent(labelPath).path) {
                case .success(let bytes): own = bytes
                case .failure(let failure):
                    throw Diagnostic("cannot read this label file: \(failure.reason)", at: SourceLocation(file: "templates/" + labelPath, line: 1, column: 1))
                }
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
        let staticFolder = folder.appendingPathComponent("static").resolvingSymlinksInPath().path + "/"
        for relative in ownFiles where relative.hasPrefix("static/") {
            // A link is published only when it points at a file inside templates/static/; one
            // that leads out is an error, not a file left out in silence.
            let resolved = URL(fileURLWithPath: folder.path + "/" + relative).resolvingSymlinksInPath()
            guard resolved.path.hasPrefix(staticFolder) else {
                problems.append(Diagnostic(
                    "this link leads out of templates/static/, and only files inside it are published: copy the file into templates/static/ instead",
                    at: SourceLocation(file: "templates/" + relative, line: 1, column: 1)
                ))
                continue
            }
            staticFiles[relative] = .site(resolved)
        }

        // Pages give the preview image's pixel size in og:image:width and height: it must be
        // a PNG, whose header says it.
        var previewImageSize: (width: Int, height: Int)?
        if let preview = staticFiles[PreviewImage.themePath] {
            previewImageSize = preview.contents().flatMap(PreviewImage.pngSize)
            if previewImageSize == nil {
                problems.append(Diagnostic(
                    "this is not a PNG image, and the link-preview image must be one: save it as PNG (1200×630 suits every card)",
                    at: SourceLocation(file: "templates/" + PreviewImage.themePath, line: 1, column: 1)
                ))
            }
        }

        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return Theme(templates: templates, labels: labels, staticFiles: staticFiles, previewImageSize: previewImageSize)
    }
}
