import Foundation
import TomoCore

/// A set of compiled templates that partials and parents are looked up in by name.
///
/// Built from memory, from a folder (`DIR/name.mustache`), or by laying one library over another
/// (a site's own templates over the built-in theme, file by file).
public struct TemplateLibrary: Sendable {
    private var templates: [String: Template]

    public init(_ templates: [Template] = []) {
        self.templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Compiles every source (name → Mustache text), reporting every template that fails, not only the first.
    public init(sources: [String: String]) throws(DiagnosticList) {
        var compiled: [Template] = []
        var problems: [Diagnostic] = []
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                compiled.append(try Template(source: source, name: name))
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        self.init(compiled)
    }

    /// Compiles every `*.mustache` file under `directory`; `sub/name.mustache` is named `sub/name`.
    /// Error locations name the file by `displayPrefix` + its path inside the folder. A folder
    /// inside that cannot be read is an error, not a folder without templates.
    public init(directory: URL, displayPrefix: String = "") throws(DiagnosticList) {
        let walk = FolderEntries.files(under: directory.path, display: String(displayPrefix.dropLast(displayPrefix.hasSuffix("/") ? 1 : 0)))
        guard walk.problems.isEmpty else { throw DiagnosticList(walk.problems) }
        try self.init(files: walk.files ?? [], in: directory, displayPrefix: displayPrefix)
    }

    /// Compiles the `*.mustache` files among `files` (paths relative to `directory`, as
    /// `FolderEntries.files(under:)` lists them). `refusingControlCharacters`: a site's theme,
    /// whose pages no control character may reach (`TextFile.text`).
    public init(files: [String], in directory: URL, displayPrefix: String = "", refusingControlCharacters: Bool = false) throws(DiagnosticList) {
        var sources: [String: String] = [:]
        var problems: [Diagnostic] = []
        for relative in files where relative.hasSuffix(".mustache") {
            let data: [UInt8]
            switch RegularFile.read(directory.path + "/" + relative) {
            case .success(let bytes): data = bytes
            case .failure(let failure):
                problems.append(Diagnostic("cannot read this template: \(failure.reason)", at: SourceLocation(file: displayPrefix + relative, line: 1, column: 1)))
                continue
            }
            do {
                sources[displayPrefix + relative] = try TextFile.text(of: data, file: displayPrefix + relative, kind: "the template", refusingControlCharacters: refusingControlCharacters)
            } catch {
                problems.append(error)
            }
        }
        var compiled: [Template] = []
        for (file, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                let template = try Template(source: source, name: file)
                let name = String(file.dropFirst(displayPrefix.count).dropLast(".mustache".count))
                compiled.append(Template(renaming: template, to: name))
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        self.init(compiled)
    }

    public subscript(name: String) -> Template? { templates[name] }

    public var names: [String] { templates.keys.sorted() }

    /// This library with `other`'s templates replacing or adding to its own.
    public func overlaid(by other: TemplateLibrary) -> TemplateLibrary {
        var result = self
        result.templates.merge(other.templates) { _, overriding in overriding }
        return result
    }

    /// Renders the template called `name`.
    public func render(_ name: String, context: JSONValue) throws(Diagnostic) -> [UInt8] {
        guard let template = templates[name] else {
            throw Diagnostic("no template named \"\(name)\"\(Suggestion.hint(for: name, in: templates.keys))")
        }
        return try render(template, context: context)
    }

    /// Renders `template`, looking its partials up in this library.
    public func render(_ template: Template, context: JSONValue, limits: RenderLimits = .standard) throws(Diagnostic) -> [UInt8] {
        var output: [UInt8] = []
        try render(template, context: context, into: &output, limits: limits)
        return output
    }

    /// Renders `template` appending to `output`, so a caller can reuse one buffer for many pages.
    public func render(_ template: Template, context: JSONValue, into output: inout [UInt8], limits: RenderLimits = .standard) throws(Diagnostic) {
        var renderer = Renderer(library: self, templateName: template.name, context: context, output: output, limits: limits)
        output = []
        defer { swap(&renderer.output, &output) }
        try renderer.renderTemplate(template.nodes)
    }
}

extension Template {
    /// The same compiled template under another name (errors keep pointing at the file).
    init(renaming template: Template, to name: String) {
        self.name = name
        self.nodes = template.nodes
        self.references = template.references
    }
}
