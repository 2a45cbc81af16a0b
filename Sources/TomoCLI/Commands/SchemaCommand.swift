import Foundation
import TomoContent
import TomoSite

/// `tomo schema [--out DIR]`: the JSON Schemas of the content files, for editors.
enum SchemaCommand {
    static let spec = CommandSpec(
        path: ["schema"],
        summary: "Write the JSON Schemas of site.yaml, profiles, posts and pages (for editors)",
        options: [OptionSpec("out", value: "DIR", "write them here instead of the site's schemas/ folder", kind: .path)],
        discussion: """
        Writes JSON Schemas (draft 2020-12) made from the tables tomo check reads content with:
          \(ContentSchema.documents.map(\.fileName).joined(separator: "\n  "))
        Without --out they go to schemas/ in the site, where the `# yaml-language-server:
        $schema=…` lines that tomo init and tomo user add write point, and where
        .vscode/settings.json maps content/site.yaml and content/users/ to them. Run it again
        after updating tomo; older copies are replaced.

        A schema catches what can be seen in one file (unknown keys, types, colours, URLs,
        dates, words); tomo check also checks what needs the whole site (files that exist, …).

        Example:
          tomo schema && code .
        """,
        run: { invocation in
            let folder = try invocation.option("out").map(invocation.path)
                ?? invocation.siteDirectory().appendingPathComponent(SchemaFiles.folder)
            let shown = BuildCommand.displayPath(folder, from: invocation.workingDirectory)
            for url in try SchemaFiles.write(to: folder) {
                invocation.console.line("wrote \(shown)\(url.lastPathComponent)")
            }
            return 0
        }
    )
}
