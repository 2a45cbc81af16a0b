import Foundation
import TomoSite

/// `tomo init [DIR]`: a new site that builds at once.
enum InitCommand {
    static let spec = CommandSpec(
        path: ["init"],
        summary: "Create a new site (in DIR, or here)",
        arguments: [ArgumentSpec("DIR", "the folder for the new site (default: the current folder)", optional: true)],
        discussion: """
        Writes content/site.yaml, an example profile, an about page and a .gitignore. Refuses to
        touch a folder that already holds a site.

        Example:
          tomo init my-site && cd my-site && tomo build
        """,
        run: { invocation in
            let folder = invocation.path(invocation.argument(0) ?? ".")
            let written = try SiteStarter.create(at: folder)
            let console = invocation.console
            console.line("Created a Tomo site in \(BuildCommand.displayPath(folder, from: invocation.workingDirectory))")
            for path in written { console.line("  " + path) }
            console.line("Next: edit content/users/example.yaml, then run `tomo build` (or `tomo serve`).")
            return 0
        }
    )
}
