import Foundation
import TomoCore
import TomoTemplates
import TomoTheme

/// What a site is rendered with: the built-in theme, with the site's own `templates/` folder
/// laid over it file by file (a template, a label file or a static file of the same name wins).
public struct Theme: Sendable {
    public let templates: TemplateLibrary
    /// Every label file, the built-in ones with the site's own laid over them key by key.
    let labelFiles: LabelFiles
    /// Output path (`static/style.css`) → where the bytes come from.
    public let staticFiles: [String: StaticFile]
    /// The pixel size of the link-preview image for pages without one of their own
    /// (`static/preview.png`), nil when the theme has none.
    let previewImageSize: (width: Int, height: Int)?

    public enum StaticFile: Sendable, Hashable {
        case builtin(String)
        case site(URL)

        public func contents() -> [UInt8]? {
            try? read(at: "").get()
        }

        /// The bytes, or why the file at `path` (`static/style.css`) cannot be read, located at
        /// the site's file.
        func read(at path: String) -> Result<[UInt8], Diagnostic> {
            switch self {
            case .builtin(let name):
                guard let bytes = BuiltinTheme.contents(of: name) else { return .failure(Diagnostic("the built-in theme has no file \(name)")) }
                return .success(Array(bytes))
            case .site(let url):
                return RegularFile.read(url.path).mapError { failure in
                    Diagnostic(Self.readFailure(failure), at: SourceLocation(file: "templates/" + path, line: 1, column: 1))
                }
            }
        }

        static func readFailure(_ failure: RegularFile.Failure) -> String {
            "cannot read this static file of the theme: \(failure.reason)"
        }
    }

    /// Loads the theme for `site`, reporting every broken template and label file at once.
    public static func load(site: URL) throws(DiagnosticList) -> Theme {
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
                templates = templates.overlaid(by: try TemplateLibrary(files: ownFiles, in: folder, displayPrefix: "templates/", refusingControlCharacters: true))
            } catch {
                problems += error.diagnostics
            }
        }

        var labelFiles = LabelFiles()
        for path in BuiltinTheme.paths where LabelFiles.isLabelFile(path) {
            guard let builtin = BuiltinTheme.contents(of: path) else { continue }
            labelFiles.add(Array(builtin), at: path, into: &problems)
        }
        for path in ownFiles where LabelFiles.isLabelFile(path) {
            switch RegularFile.read(folder.appendingPathComponent(path).path) {
            case .success(let bytes):
                labelFiles.add(bytes, at: path, overriding: true, into: &problems)
            case .failure(let failure):
                problems.append(Diagnostic("cannot read this label file: \(failure.reason)", at: SourceLocation(file: "templates/" + path, line: 1, column: 1)))
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
            // Read when its file is made, after the output's writing began: a file that cannot
            // be read is an error now, with the site's other errors, never half a build.
            if let failure = RegularFile.check(resolved.path) {
                problems.append(Diagnostic(StaticFile.readFailure(failure), at: SourceLocation(file: "templates/" + relative, line: 1, column: 1)))
                continue
            }
            staticFiles[RootFolder.publishedName(relative)] = .site(resolved)
        }
        problems += nestingProblems(in: staticFiles)

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
        return Theme(templates: templates, labelFiles: labelFiles, staticFiles: staticFiles, previewImageSize: previewImageSize)
    }

    /// A static file of the site's theme where the built-in theme has a folder, or a folder
    /// where it has a file: both would be published, one as a folder of the other, and one
    /// would be lost. Found here, before anything is written (the output could not hold both).
    /// So is one whose path differs from another's only in letter case (`CaseCollisions`).
    private static func nestingProblems(in staticFiles: [String: StaticFile]) -> [Diagnostic] {
        let own = Set(staticFiles.compactMap { if case .site = $0.value { $0.key } else { nil } })
        let builtin = Set(staticFiles.keys).subtracting(own)
        var problems: [Diagnostic] = []
        for (file, inner) in FolderNesting.foldersTaken(by: own, among: builtin) {
            problems.append(Diagnostic(
                "the theme has a file \(file), and this folder takes its place (with templates/\(inner) in it): rename the folder, or delete it to keep the theme's file",
                at: SourceLocation(file: "templates/" + file, line: 1, column: 1)
            ))
        }
        for (file, inner) in FolderNesting.foldersTaken(by: builtin, among: own) {
            problems.append(Diagnostic(
                "the theme has a folder \(file)/ (with \(inner) in it), and this file takes its place: rename or remove this file",
                at: SourceLocation(file: "templates/" + file, line: 1, column: 1)
            ))
        }
        var byLetters = CaseCollisions(lookingFor: own)
        for path in staticFiles.keys.sorted() { byLetters.add(path) }
        for file in own.sorted() {
            guard let (at, other) = byLetters.collision(of: file) else { continue }
            let what = at == file ? "this file" : "its folder \(at)/"
            let which = switch other {
            case .file(let path): builtin.contains(path) ? "the theme's file \(path)" : "templates/\(path)"
            case .folder(let folder, let inner): builtin.contains(inner) ? "the theme's folder \(folder)/" : "the folder templates/\(folder)/"
            }
            problems.append(Diagnostic(
                "\(what) differs only in letter case from \(which); a host whose file names ignore case keeps only one of them: rename or remove this file",
                at: SourceLocation(file: "templates/" + file, line: 1, column: 1)
            ))
        }
        return problems
    }
}
