import Foundation
import TomoCore
import TomoTemplates

/// `tomo template render`: the theme author's tool for trying a template.
enum TemplateCommands {
    static let render = CommandSpec(
        path: ["template", "render"],
        summary: "Render one Mustache template with JSON data and print it",
        arguments: [ArgumentSpec("FILE", "the Mustache template to render", kind: .path)],
        options: [
            OptionSpec("data", value: "JSON", "the context: JSON text, or @FILE to read it from a file", required: true, type: ValueTypes.jsonOrFile),
            OptionSpec("partials", value: "DIR", "where partials come from: {{>name}} is DIR/name.mustache", kind: .directory),
        ],
        discussion: """
        The output is printed exactly as rendered, with no newline added, to a file or a pipe;
        on a terminal, control characters show escaped (\\u{1B}), as in all of tomo's output.

        Examples:
          tomo template render card.mustache --data '{"name": "Alice"}'
          tomo template render page.mustache --data @view.json --partials templates
        """,
        run: { invocation in
            let file = invocation.arguments[0]
            let data = try contextData(invocation)
            let templateURL = invocation.path(file)
            let source = try TextFile.text(of: read(templateURL.path, named: file), file: file, kind: "the template")
            let template = try Template(source: source, name: file)
            var library = TemplateLibrary()
            if let partials = invocation.option("partials") {
                let folder = invocation.path(partials)
                var status = stat()
                guard stat(folder.path, &status) == 0 else {
                    throw Diagnostic("--partials \(partials): no such folder")
                }
                // A file, a pipe or a socket there is named as what it is.
                guard status.isFolder else {
                    throw Diagnostic("--partials \(partials): it is \(RegularFile.kind(of: status.st_mode)), not a folder: give the folder that holds the partials")
                }
                library = try TemplateLibrary(directory: folder, displayPrefix: partials.hasSuffix("/") ? partials : partials + "/")
            }
            let output = try library.render(template, context: data)
            invocation.console.exactly(String(decoding: output, as: UTF8.self))
            return 0
        }
    )

    private static func contextData(_ invocation: Invocation) throws -> JSONValue {
        switch try invocation.value("data", ValueTypes.jsonOrFile) {
        case .json(let value):
            return value
        case nil:
            // The parser refuses a missing required option before any command runs.
            throw UsageError("missing --data JSON", usage: invocation.command.usage)
        case .file(let path):
            return try JSONParser.parse(bytes: read(invocation.path(path).path, named: "--data @" + path), file: path)
        }
    }

    /// The bytes of the file at `path`, or why it cannot be read and what to do (`named` is how
    /// the command line names it).
    private static func read(_ path: String, named name: String) throws(Diagnostic) -> [UInt8] {
        switch RegularFile.read(path) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw Diagnostic("\(name): cannot read this file: \(failure.reason)")
        }
    }
}
