import TomoCore
import TomoMarkdown
import TomoYAML

/// Reads a free page: YAML front matter (`title`, `description`, `draft`) and a Markdown body.
enum PageReader {
    /// The keys of a page's front matter.
    static let table = KeyTable("a page's front matter", [
        KeySpec("title", .nonBlankText, "The page's title.", required: true),
        KeySpec("description", .text, "One sentence about the page, for search engines and link previews."),
        KeySpec("draft", .boolean, "Leaves the page out of the build (tomo build --drafts keeps it).", default: .bool(false)),
    ])

    static func read(_ bytes: [UInt8], name: String, file: String, reader: NodeReader) -> Page? {
        guard let document = reader.splitFrontMatter(bytes, file: file) else { return nil }
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let yaml = document.yaml else {
            reader.error("a page starts with front matter: put `---`, `title: About`, `---` on the first three lines", at: start)
            return nil
        }
        guard let root = reader.parseYAML(yaml, file: file) else { return nil }
        guard let fields = reader.fields(of: root, table: table) else { return nil }
        let title = reader.string(fields, "title", required: "About")
        let description = reader.string(fields, "description")
        let draft = reader.bool(fields, "draft") ?? false
        guard let title, let body = reader.readableMarkdown(document.body, named: "the page", at: start, firstLine: document.bodyLine) else { return nil }
        let page = Page(
            name: name,
            file: file,
            title: title,
            description: description,
            draft: draft,
            markdown: document.body,
            html: body.html
        )
        return reader.hasErrors ? nil : page
    }
}
