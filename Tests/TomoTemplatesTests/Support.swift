import Testing
import TomoCore
@testable import TomoTemplates

/// One rendering example: a template, its JSON context, the partials it may use, and the exact output.
struct Example: CustomTestStringConvertible, Sendable {
    var name: String
    var template: String
    var data: String = "{}"
    var partials: [String: String] = [:]
    var expected: String

    var testDescription: String { name }
}

/// Renders `template` against `data` (JSON text) with `partials` (name → source).
func render(_ template: String, data: String = "{}", partials: [String: String] = [:]) throws -> String {
    let context = try JSONParser.parse(data, file: "data.json")
    let library = try TemplateLibrary(sources: partials)
    let compiled = try Template(source: template, name: "test.mustache")
    return String(decoding: try library.render(compiled, context: context), as: UTF8.self)
}

/// The message of the error that compiling `template` reports.
func compileError(_ template: String, name: String = "page.mustache") -> String? {
    do {
        _ = try Template(source: template, name: name)
        return nil
    } catch {
        return error.description
    }
}
