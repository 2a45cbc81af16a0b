import Foundation
import TomoSite

/// `tomo init [DIR]`: a new site that builds at once.
enum InitCommand {
    static let spec = CommandSpec(
        path: ["init"],
        summary: "Create a new site (in DIR, or here)",
        arguments: [ArgumentSpec("DIR", "the folder for the new site (default: --site DIR, or the current folder)", optional: true, kind: .directory)],
        discussion: """
        Writes content/site.yaml, an example profile, an about page and a .gitignore. Refuses to
        touch a folder that already holds a site. `tomo init --site DIR` is `tomo init DIR`;
        giving both DIR and a --site naming another folder is wrong usage (exit status 2).

        Example:
          tomo init my-site && cd my-site && tomo build
        """,
        run: { invocation in
            let folder = try folder(invocation)
            let written = try SiteStarter.create(at: folder)
            let console = invocation.console
            console.line("Created a Tomo site in \(BuildCommand.displayPath(folder, from: invocation.workingDirectory))")
            for path in written { console.line("  \(path)") }
            console.line("Next: edit content/users/example.yaml, then run `tomo build` (or `tomo serve`).")
            return 0
        }
    )

    /// DIR, or `--site DIR`, or the working folder; DIR and a --site that differ are refused.
    private static func folder(_ invocation: Invocation) throws -> URL {
        try invocation.checkWorkingDirectory(for: invocation.argument(0) ?? invocation.siteOption)
        let argument = invocation.argument(0).map(invocation.path)
        let site = invocation.siteOption.map(invocation.path)
        if let argument, let site, argument.path != site.path {
            throw UsageError("two folders for one site: DIR is \(argument.path) but --site is \(site.path); give one of them", usage: invocation.command.usage)
        }
        let folder = argument ?? site ?? invocation.workingDirectory.standardizedFileURL
        try Invocation.checkRoomForASite(in: folder)
        return folder
    }
}
